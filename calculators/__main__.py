"""Command line: `python -m calculators NAME --param value ...`.

Generated from the registry: every calculator is a subcommand, every
parameter an option. Bad input prints the calculator's own sentence and
exits with status 2; `--json` prints the same dict the web page gets.

`python -m calculators track NAME [FILE] [--do JSON]... [--seed N]` runs a
tracker (a fight, a season): FILE is a saved state or a JSON list of
actions, each --do one more action; every step is printed, then the state.

Everything given is checked before the first step: a file must be a regular
file of UTF-8 JSON within the tracker's size and nesting limits, --save must
name a file that can be written, and a run takes at most MAX_ACTIONS
actions. Text printed from a result or a state goes through `say`, which
shows control, direction and zero-width characters as escapes, so a name
never reaches the terminal as a command; --json output is ASCII-escaped JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from fractions import Fraction
from typing import NoReturn, TextIO

from .fmt import percent, ratio
from .checks import MAX_SEED, InputError, escaped, parse_seed
from .registry import all_calculators, all_trackers
from .runner import MAX_NESTING, Answer, compact_json, nesting, run, track
from .house_rules import apply_table

# actions in one `track` run, FILE's and --do's together: a season's log holds 100, a fight's undo 30
MAX_ACTIONS = 1_000
TABLE_MAX_CHARS = 100_000  # a table settings file: a few dozen rulings fit many times over


def say(text: object, file: TextIO | None = None) -> None:
    """Print text from a result, a state or an error: control, direction and zero-width characters as escapes.

    The one way this command line prints text; only its own line breaks stay
    line breaks (no state holds one: names are checked with checks.check_name).
    """
    print("\n".join(escaped(line) for line in str(text).split("\n")), file=sys.stdout if file is None else file)


class _Parser(argparse.ArgumentParser):
    """argparse, with what it echoes of the command line (an unknown option, a bad value) escaped like all printed
    text."""

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            say(message.rstrip("\n"), sys.stderr)
        sys.exit(status)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m calculators",
        description="Resolve a roll or a situation by the rules, with the exact odds.",
    )
    sub = parser.add_subparsers(dest="calculator", metavar="CALCULATOR", title="calculators")
    for calc in all_calculators().values():
        cmd = sub.add_parser(calc.name, help=calc.title, description=calc.summary)
        groups = {}  # a form's row (one duelist) is a section of the help
        for p in calc.params:
            extra = ""
            if p.kind in ("choice", "yes_no"):
                extra = " (" + ", ".join(v for v, _ in p.choices) + ")"
            elif p.kind == "dice":
                extra = " (leave out and give --seed to roll)"
            if p.default is not None:
                extra += f" [default: {p.default}]"
            if p.group and p.group not in groups:
                groups[p.group] = cmd.add_argument_group(p.group)
            where = groups.get(p.group, cmd)
            where.add_argument("--" + p.name.replace("_", "-"), dest=p.name, metavar=p.kind.upper(),
                               help=(p.help or p.label) + extra)
        if calc.legacy:
            older = cmd.add_argument_group("older options", "still accepted; each stands for one row of options above")
            for old in calc.legacy:
                older.add_argument("--" + old.name.replace("_", "-"), dest=old.name, metavar="TEXT",
                                   help=old.help or old.label)
        if any(p.ruling for p in calc.params):
            table = cmd.add_argument_group("table settings", "house rulings as defaults for the ruling options above")
            table.add_argument("--table", metavar="FILE",
                               help='a JSON file of house rulings, as the settings page keeps them: {"tell_tale.both": "count"}')
            table.add_argument("--set", dest="set", metavar="NAME=VALUE", action="append", default=None,
                               help="one house ruling (repeat for more), e.g. --set both=count or --set tell_tale.both=count")
        cmd.add_argument("--seed", help="roll the dice you left out with this seed (same seed, same dice)")
        cmd.add_argument("--json", action="store_true", help="print the result as JSON")
    trackers = all_trackers()
    cmd = sub.add_parser("track",
                         help="run a tracker (" + ", ".join(trackers) + ") over a saved state or a file of actions",
                         description="Apply actions to a tracker's state and print each step and the state. FILE is a saved "
                                     "state (as the page exports it) or a JSON list of actions; without FILE a new state starts.")
    cmd.add_argument("tracker", metavar="NAME", help="the tracker: " + ", ".join(trackers))
    cmd.add_argument("file", metavar="FILE", nargs="?", help="a saved state, or a JSON list of actions")
    cmd.add_argument("--do", dest="do", metavar="JSON", action="append", default=None,
                     help=f'one more action, e.g. --do \'{{"do": "undo"}}\' (repeat for more; at most {MAX_ACTIONS:,} actions '
                          'in one run, FILE\'s and --do\'s together)')
    cmd.add_argument("--seed", help="roll the dice an action leaves out: step n rolls with this seed + n - 1")
    cmd.add_argument("--json", action="store_true", help="print only the last answer, with the state, as JSON")
    cmd.add_argument("--save", metavar="OUT", help="write the state to this file too (checked before the first step)")
    return parser


def format_result(result: Answer) -> str:
    lines = [result["headline"]]
    if result["dice"]:
        dice = ", ".join(f"{k} = {v}" for k, v in result["dice"].items())
        seed = f" (seed {result['seed']})" if result["seed"] is not None else ""
        lines.append(f"Dice: {dice}{seed}")
    lines += [f"  - {d}" for d in result["details"]]
    if result["rules"]:
        lines.append("Rules: " + ", ".join(result["rules"]))
    if result["odds"]:
        lines.append(result["odds_title"] or "Odds")
        width = max(len(o["label"]) for o in result["odds"])
        for o in result["odds"]:
            mark = "  <-" if o["label"] == result["highlight"] else ""
            p = Fraction(o["numerator"], o["denominator"])
            lines.append(f"  {o['label']:<{width}}  {percent(p, 2, 6)}  {ratio(p)}{mark}")
    return "\n".join(lines)


_FLAGS = ("--json", "--help")  # the options that take no value


def attach_negative_values(argv: list[str]) -> list[str]:
    """`--ratings -3,-2` -> `--ratings=-3,-2`.

    argparse takes a value that starts with '-' for an option, unless it is
    one plain number; a list of negative numbers is a valid value. Only a
    '-' followed by a digit is attached (no option name starts so), and
    nothing after a bare '--'.
    """
    out: list[str] = []
    args = iter(argv)
    for arg in args:
        out.append(arg)
        if arg == "--":
            out.extend(args)
            break
        if arg.startswith("--") and "=" not in arg and arg not in _FLAGS:
            value = next(args, None)
            if value is None:
                break
            if len(value) > 1 and value[0] == "-" and value[1] in "0123456789":
                out[-1] = f"{arg}={value}"
            else:
                out.append(value)
                if value == "--":
                    out.extend(args)
                    break
    return out


def read_table(path: str | None, sets: list[str] | None) -> dict[str, str]:
    """House rulings from --table FILE and --set NAME=VALUE (a --set wins over the file)."""
    table: dict[str, str] = {}
    if path is not None:
        data = _read_json(path, TABLE_MAX_CHARS, "The table settings file", "table")
        if not isinstance(data,
                          dict) or not all(isinstance(v, (str, int)) and not isinstance(v,
                                                                                        bool) for v in data.values()):
            raise InputError(f'The table settings file {path!r} must hold one JSON object of names and values, like {{"tell_tale.both": "count"}}.', "table")
        table.update({str(k): str(v) for k, v in data.items()})
    for item in sets or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--set takes NAME=VALUE, like --set both=count; got {item[:40]!r}.", "table")
        table[key.strip()] = value.strip()
    return table


def _read_text(path: str, most: int, what: str, field: str | None) -> str:
    """A regular file's text: UTF-8, at most `most` characters; else InputError naming the file.

    Opened without blocking and checked before a byte is read, so a named
    pipe, a device or a folder is refused at once instead of waited on.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        raise InputError(f"{what} {path!r} cannot be read: {err.strerror}.", field) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a folder, not a file" if stat.S_ISDIR(mode) else "not a regular file (a pipe or a device is not read)"
        raise InputError(f"{what} {path!r} is {kind}.", field)
    with open(fd, encoding="utf-8") as file:
        try:
            text = file.read(most + 1)
        except UnicodeDecodeError as err:
            raise InputError(f"{what} {path!r} is not text (UTF-8): {err.reason}.", field) from None
        except OSError as err:
            raise InputError(f"{what} {path!r} cannot be read: {err.strerror}.", field) from None
    if len(text) > most:
        raise InputError(f"{what} {path!r} is over {most:,} characters.", field)
    return text


def _read_json(path: str, most: int, what: str, field: str | None = None) -> object:
    """A file's JSON, its size and nesting checked before it is parsed (json.loads recurses once per level)."""
    text = _read_text(path, most, what, field)
    if nesting(text) > MAX_NESTING:
        raise InputError(f"{what} {path!r} is nested too deep (over {MAX_NESTING} levels of brackets).", field)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise InputError(f"{what} {path!r} is not JSON.", field) from None


def _check_save(path: str) -> None:
    """--save OUT, before any step runs: a file (new or old) in a folder that exists and can be written."""
    if not path.strip():
        raise InputError("--save needs the name of a file to write.", "save")
    if os.path.isdir(path):
        raise InputError(f"The --save file {path!r} is a folder; name a file to write.", "save")
    if os.path.lexists(path) and not os.path.isfile(path):
        raise InputError(f"The --save file {path!r} is not a regular file (a pipe or a device is not written).", "save")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(f"The --save file {path!r} cannot be written: there is no folder {folder!r}.", "save")
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        raise InputError(f"The --save file {path!r} cannot be written: permission denied.", "save")


def _count_actions(path: str | None, from_file: int, from_options: int) -> None:
    """At most MAX_ACTIONS in one run, said of the file or the options that hold them."""
    total = from_file + from_options
    if total <= MAX_ACTIONS:
        return
    where = (f"The file {path!r} holds {from_file:,} actions" if from_file > MAX_ACTIONS else
             f"The file {path!r} and the --do options hold {total:,} actions" if from_file else
             f"The --do options give {total:,} actions")
    raise InputError(f"{where}; one run takes at most {MAX_ACTIONS:,}: run the rest from the state saved with --save.",
                     "do")


def run_tracker(name: str, path: str | None, extra: list[str], seed: str | None, as_json: bool,
                save: str | None) -> int:
    """`track NAME [FILE] [--do JSON]...`: every step through runner.track, as the page takes it."""
    trackers = all_trackers()
    try:
        if name not in trackers:
            raise InputError(f"There is no tracker called {name[:60]!r}; the trackers are {', '.join(trackers)}.")
        tracker = trackers[name]
        if save is not None:
            _check_save(save)
        data = _read_json(path, tracker.max_state_chars, "The file") if path is not None else None
        state = "" if data is None or isinstance(data, list) else json.dumps(data)
        actions = list(data) if isinstance(data, list) else []
        _count_actions(path, len(actions), len(extra))
        for text in extra:
            if nesting(text) > MAX_NESTING:
                raise InputError(f"--do takes one action as JSON; {text[:40]!r} is nested too deep (over {MAX_NESTING} levels of brackets).", "do")
            try:
                actions.append(json.loads(text))
            except (ValueError, RecursionError):
                raise InputError(f"--do takes one action as JSON, like '{{\"do\": \"undo\"}}'; got {text[:40]!r}.",
                                 "do") from None
        first_seed = parse_seed(seed)
        if state and not actions:  # a saved state alone: checked, then printed
            checked = tracker.check(data)
            state = json.dumps(checked)
    except ValueError as err:
        say(err, sys.stderr)
        return 2
    answer: Answer = {"ok": True, "tracker": name, "state": json.loads(state) if state else tracker.new()}
    for n, action in enumerate(actions, start=1):
        step_seed = None if first_seed is None else (first_seed + n - 1) % (MAX_SEED + 1)
        answer = track(name, state, json.dumps(action), step_seed)
        if not answer["ok"]:
            say(f"Step {n} ({json.dumps(action)[:60]}): {answer['error']}", sys.stderr)
            return 2
        state = compact_json(answer["state"])  # the text track() answered: not checked again next step
        if not as_json:
            say(f"{n}. {answer['headline']}" + (f" (dice: {', '.join(f'{k} {v}' for k, v in answer['dice'].items())}, seed {step_seed})"
                                                if answer["dice"] else ""))
            say("\n".join(f"   - {d}" for d in answer["details"]))
            if answer["rules"]:
                say("   Rules: " + ", ".join(answer["rules"]))
    if save is not None:
        try:
            with open(save, "w", encoding="utf-8") as file:
                json.dump(answer["state"], file, indent=1)
        except OSError as err:
            say(f"The --save file {save!r} cannot be written: {err.strerror}.", sys.stderr)
            return 2
    if as_json:
        say(json.dumps(answer, indent=1))  # ASCII: json.dumps escapes every other character
    elif tracker.describe:
        say(tracker.describe(answer["state"]))
    else:
        say("State:\n" + json.dumps(answer["state"], indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = vars(parser.parse_args(attach_negative_values(sys.argv[1:] if argv is None else list(argv))))
    name = args.pop("calculator")
    if name is None:
        parser.print_help()
        return 0
    if name == "track":
        return run_tracker(args["tracker"], args["file"], args["do"] or [], args["seed"], args["json"], args["save"])
    as_json = args.pop("json")
    seed = args.pop("seed")
    table_file, sets = args.pop("table", None), args.pop("set", None)
    raw = {k: v for k, v in args.items() if v is not None}
    try:
        table = read_table(table_file, sets)
        raw = apply_table(name, raw, table) if table else raw
    except InputError as err:
        say(err, sys.stderr)
        return 2
    result = run(name, raw, seed)
    if not result["ok"]:
        say(result["error"], sys.stderr)
        return 2
    # --json: ASCII, json.dumps escapes the rest
    say(json.dumps(result, indent=2) if as_json else format_result(result))
    return 0


def cli() -> str | int | None:
    """main() for a real process: a reader that closes the pipe early (`| head`) ends it quietly."""
    if getattr(sys.stdout, "errors", None) == "strict" and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")  # a name this terminal cannot show is no traceback
    code: str | int | None
    try:
        try:
            code = main()
        except SystemExit as stop:  # argparse after --help or a usage error: flush below all the same
            code = stop.code
        sys.stdout.flush()
    except BrokenPipeError:
        # Python flushes stdout once more on the way out; point it at devnull so that finds nothing to fail on.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return code


if __name__ == "__main__":
    sys.exit(cli())
