# Imported into the memory snapshot at build time and run by the worker on a
# normal boot: load every calculator module and run each calculator once.
import json
import random

import calculators.registry as registry



def _warm_up():
    for calc in registry.all_calculators().values():
        registry.run(calc.name, {}, seed=1)


_warm_up()


def compute(name, params_json, seed):
    """The worker's one entry point: JSON in, JSON out, never raises for bad input."""
    return json.dumps(registry.run(name, json.loads(params_json), seed))
