"""Each game once: its rule IDs' prefix, its folder of rule pages, its package of calculators and its name.

Everything else reads these records: the registry finds each game's
calculators in its package (`registry.all_calculators`), the rule markup
checks IDs and folders by them (`rulebook.markup`), the forms and the
finishing step name the games and their settings pages, `table-settings.json`
publishes them for the page scripts, and the tests take the set of games
from here (a test checks that mkdocs.yml's nav has one section per record).
No imports but the standard library's dataclasses: the registry and the
rule markup both read it, neither through the other.

Adding a game: CONTRIBUTING.md, "Adding a game".
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    """One game, spelled each way the site needs it."""

    prefix: str  # its rule IDs start with it: tt.combat.attack-table
    folder: str  # its rule pages, docs/tell-tale/, and its part of the site's address
    package: str  # its calculators: calculators.tell_tale (CALCULATORS, TRACKERS)
    name: str  # as players read it: Tell-Tale

    @property
    def key(self) -> str:
        """The package's own name, which leads its calculators', trackers' and settings' names:
        tell_tale.resolve_attack."""
        return self.package.rpartition(".")[2]

    @property
    def settings_page(self) -> str:
        """The address, from the site's root, of its table settings page, where the page scripts look for it."""
        return f"{self.folder}/table-settings/"

    def published(self) -> dict[str, str]:
        """The record as table-settings.json gives it to the page scripts."""
        return {"prefix": self.prefix, "folder": self.folder, "key": self.key, "name": self.name}


GAMES = (
    Game("tt", "tell-tale", "calculators.tell_tale", "Tell-Tale"),
    Game("tal", "talislanta", "calculators.talislanta", "Talislanta"),
    Game("rpgdl", "rpgdl", "calculators.rpgdl", "RPGDL TCG"),
)
BY_PREFIX = {g.prefix: g for g in GAMES}
BY_FOLDER = {g.folder: g for g in GAMES}
BY_KEY = {g.key: g for g in GAMES}
