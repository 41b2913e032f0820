"""The fight the benchmarks play: two PCs and two NPCs, added in this order."""

FOUR = [
    {"do": "add", "name": "Vraska", "kind": "pc", "power": 3, "toughness": 3, "vitality": 15,
     "speed": 10, "initiative": 14},
    {"do": "add", "name": "Goblin", "kind": "npc", "power": 1, "toughness": 1, "vitality": 4,
     "speed": 8, "initiative": 12},
    {"do": "add", "name": "Mira", "kind": "pc", "power": 2, "toughness": 2, "vitality": 12,
     "speed": 12, "initiative": 10},
    {"do": "add", "name": "Ogre", "kind": "npc", "power": 5, "toughness": 5, "vitality": 14,
     "speed": 8, "initiative": 9},
]
