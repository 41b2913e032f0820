# Run at build time before the memory snapshot is taken, and by the worker
# after a normal boot. After a snapshot is restored the wheels' files are not
# on the file system, only what was imported: so import every module of the
# calculators and of icepool, and run every calculator on its examples.
# The worker then calls the global `compute` (calculators/web.py).
# Left out: the modules only the command line and the build use (the CLI
# brings argparse and gettext), 85 kB of the packed snapshot; no page
# imports them (tests/test_pyodide.py checks the snapshot holds none).
import importlib
import json
import pkgutil
import random  # noqa: F401 - in memory already when the worker reseeds it

import calculators
import calculators.registry as registry
import icepool
from calculators.web import compute

NOT_IN_THE_BROWSER = {"calculators.__main__", "calculators.house_rules"}


def _warm_up():
    for package in (calculators, icepool):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if module.name not in NOT_IN_THE_BROWSER:
                importlib.import_module(module.name)
    for calc in registry.all_calculators().values():
        for example in calc.examples:
            params = {k: v for k, v in example.items() if k != "seed"}
            compute(calc.name, json.dumps(params), example.get("seed"))


_warm_up()
