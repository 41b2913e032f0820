"""The wheel the browser loads holds the calculators alone: the project's build-time packages (rulebook, runtime)
are taken out of it, with their lines in RECORD and top_level.txt."""

from __future__ import annotations

import zipfile

from runtime.build import calculators_only

INFO = "calculators-0.1.0.dist-info"


def test_the_browsers_wheel_keeps_the_calculators_and_its_metadata_only(tmp_path):
    wheel = tmp_path / "calculators-0.1.0-py3-none-any.whl"
    names = ["calculators/__init__.py", "calculators/tell_tale/combat.py", "rulebook/__init__.py",
             "runtime/__init__.py", "runtime/build.py", f"{INFO}/METADATA"]
    with zipfile.ZipFile(wheel, "w") as z:
        for name in names:
            z.writestr(name, f"# {name}\n")
        z.writestr(f"{INFO}/top_level.txt", "calculators\nrulebook\nruntime\n")
        z.writestr(f"{INFO}/RECORD", "".join(f"{n},sha256=x,1\n" for n in names) + f"{INFO}/RECORD,,\n")
    calculators_only(wheel)
    with zipfile.ZipFile(wheel) as z:
        assert sorted(z.namelist()) == sorted(["calculators/__init__.py", "calculators/tell_tale/combat.py",
                                               f"{INFO}/METADATA", f"{INFO}/top_level.txt", f"{INFO}/RECORD"])
        assert z.read(f"{INFO}/top_level.txt") == b"calculators\n"
        record = z.read(f"{INFO}/RECORD").decode()
        assert "rulebook/" not in record and "runtime/" not in record and "calculators/tell_tale/combat.py" in record
        assert z.read("calculators/tell_tale/combat.py") == b"# calculators/tell_tale/combat.py\n"
