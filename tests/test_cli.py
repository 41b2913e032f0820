"""The command line as a shell uses it: pipes, negative numbers, bad input.

Bad input prints one sentence and exits 2; nothing ever prints a traceback.
Most cases call main() in this process; a few need a real process (a pipe
the reader closed, the terminal's encoding).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import calculators.__main__ as cli_module
from calculators import runner
from calculators.__main__ import attach_negative_values, main

ROOT = Path(__file__).resolve().parent.parent
ATTACK = ["tell_tale.resolve_attack", "--power", "5", "--d20", "17"]


def _process(args, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, **kwargs.pop("env", {})}
    return subprocess.run([sys.executable, "-m", "calculators", *args], cwd=ROOT, capture_output=True, env=env, **kwargs)


def _quiet(stderr: bytes) -> None:
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text and "BrokenPipeError" not in text and "Exception ignored" not in text, text


# ---------------------------------------------------------------- a closed pipe


@pytest.mark.parametrize("args, codes", [
    (ATTACK, {1}),
    (ATTACK + ["--json"], {1}),
    # argparse drops an OSError while printing help and exits 0; the output is lost all the same
    (["--help"], {0, 1}),
    (["talislanta.multiple_actions", "--help"], {0, 1}),
])
def test_a_reader_that_closed_the_pipe_gets_no_traceback(args, codes):
    """The reader closed before a byte was written: every write fails with EPIPE, deterministically."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "calculators", *args], cwd=ROOT, stdout=write, stderr=subprocess.PIPE)
    finally:
        os.close(write)
    _quiet(done.stderr)
    assert done.returncode in codes


@pytest.mark.skipif(shutil.which("sh") is None or shutil.which("head") is None, reason="needs sh and head")
@pytest.mark.parametrize("args", [ATTACK, ["--help"]])
def test_head_0_in_a_shell(args):
    """The report's own command line; head may exit before or after the write, so either code is fine."""
    command = " ".join([sys.executable, "-m", "calculators", *args]) + " | head -n 0"
    done = subprocess.run(["sh", "-c", command], cwd=ROOT, capture_output=True)
    _quiet(done.stderr)
    assert done.returncode == 0 and done.stdout == b""


def test_the_whole_answer_still_reaches_an_open_pipe():
    done = _process(ATTACK)
    assert done.returncode == 0 and done.stdout.decode().startswith("Full damage: 5 damage")


# ---------------------------------------------------------------- negative numbers in options


@pytest.mark.parametrize("ratings", ["-3,-2", "-3 -2", "-3,2", "-3;+4"])
def test_list_options_take_negative_numbers(capsys, ratings):
    assert main(["talislanta.multiple_actions", "--actions", "2", "--ratings", ratings, "--d20s", "10,12"]) == 0
    out = capsys.readouterr().out
    assert "Action 1: rating -3" in out


def test_negative_numbers_in_a_real_process():
    done = _process(["talislanta.multiple_actions", "--actions", "2", "--ratings", "-3,-2", "--d20s", "10,12"])
    _quiet(done.stderr)
    assert done.returncode == 0 and b"rating -2" in done.stdout


@pytest.mark.parametrize("argv, attached", [
    (["x", "--ratings", "-3,-2"], ["x", "--ratings=-3,-2"]),
    (["x", "--ratings", "-3", "--d20s", "-1 4"], ["x", "--ratings=-3", "--d20s=-1 4"]),
    (["x", "--ratings=-3,-2"], ["x", "--ratings=-3,-2"]),
    (["x", "--json", "--seed", "-5"], ["x", "--json", "--seed=-5"]),
    (["x", "--power", "--json"], ["x", "--power", "--json"]),  # argparse then says --power needs a value
    (["x", "--decklist", "-2 Forest"], ["x", "--decklist=-2 Forest"]),
    (["x", "--decklist", "- Forest"], ["x", "--decklist", "- Forest"]),
    (["x", "--", "--ratings", "-3"], ["x", "--", "--ratings", "-3"]),
    (["x", "--ratings"], ["x", "--ratings"]),
])
def test_attach_negative_values(argv, attached):
    assert attach_negative_values(argv) == attached


# ---------------------------------------------------------------- bad input: one sentence, exit 2


@pytest.mark.parametrize("args, message", [
    (["tell_tale.check_deck", "--decklist", "-2 Forest"], "Line 1: a card is listed with at least 1 copy; got -2 of 'Forest'."),
    (["tell_tale.check_deck", "--decklist", "4 Bolt\n-2x Forest"], "Line 2: a card is listed with at least 1 copy; got -2 of 'Forest'."),
    (["rpgdl.check_season_deck", "--cards", "-2 Axeman"], "Line 1: a card is listed with at least 1 copy; got -2 of 'Axeman'."),
    (["tell_tale.resolve_attack", "--power", "1_000", "--d20", "17"],
     "Power must be a whole number written with the digits 0 to 9 only; got '1_000'."),
    (["tell_tale.resolve_attack", "--power", "١٢", "--d20", "17"],
     "Power must be a whole number written with the digits 0 to 9 only; got '١٢'."),
    (["tell_tale.resolve_attack", "--power", "5", "--d20", "17", "--seed", "9" * 5000],
     "The seed must be a whole number from 0 to 4294967295; got '9999999999999999999999999999999999999999…'."),
    (["rpgdl.vote_pool", "--generic-voters", "8", "--unique-weights", "1 " + "9" * 150],
     "Unique Voters' Vote Weights must be a whole number of at most 12 digits; got '99999999999999999999…'."),
    (["rpgdl.vote_pool", "--generic-voters", "8", "--unique-weights", "1 two"],
     "Unique Voters' Vote Weights: type one whole number per unique Voter, like '1 2'; got 'two'."),
    (["talislanta.multiple_actions", "--actions", "2", "--ratings", "-3,-99", "--d20s", "10,12"], "Ratings must be at least -20; got -99."),
    (["rpgdl.check_nom_pool", "--duelists", "a" + "," * 60_000 + "b"],
     "Duelists, one a line: 'Name, Division': this is 60,002 characters long; the limit is 10,000."),
])
def test_bad_input_is_one_sentence_and_exit_2(capsys, args, message):
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.err == message + "\n" and captured.out == ""


@pytest.mark.parametrize("args", [
    ["tell_tale.check_deck", "--decklist", "-2 Forest"],
    ["tell_tale.check_deck", "--decklist", "a" + " " * 120_000 + "b"],  # one argument may hold up to 128 KiB
    ["rpgdl.vote_pool", "--unique-weights", "9" * 4_300],
    ["talislanta.multiple_actions", "--ratings", "-3,-2", "--actions", "x"],
])
def test_bad_input_in_a_real_process(args):
    done = _process(args, timeout=120)
    _quiet(done.stderr)
    assert done.returncode == 2
    assert done.stderr.count(b"\n") == 1 and done.stdout == b""


def test_argparse_errors_exit_2_without_a_traceback():
    done = _process(["talislanta.multiple_actions", "--ratings"])
    _quiet(done.stderr)
    assert done.returncode == 2 and b"expected one argument" in done.stderr


def test_a_name_the_terminal_cannot_show_is_no_traceback():
    done = _process(["tell_tale.check_deck", "--decklist", "5 Café"], env={"PYTHONIOENCODING": "ascii"})
    _quiet(done.stderr)
    assert done.returncode == 0 and b"5 copies of Caf\\xe9" in done.stdout


# ---------------------------------------------------------------- table settings

CONTESTED = ["tell_tale.resolve_attack", "--power", "5", "--mode", "advantage", "--haste", "yes", "--poisoned", "yes", "--d20", "4 17"]


def test_a_table_file_sets_the_house_rulings(tmp_path, capsys):
    assert main(CONTESTED) == 2  # the site's ruling: advantage and disadvantage cancel, one d20
    assert "one die" in capsys.readouterr().err
    table = tmp_path / "table.json"
    table.write_text('{"tell_tale.both": "count", "rpgdl.half_draw": "exactly"}')  # other games' rulings ride along
    assert main([*CONTESTED, "--table", str(table)]) == 0
    assert capsys.readouterr().out.startswith("Full damage: 5 damage (kept d20 17")


def test_set_wins_over_the_file_and_an_option_wins_over_both(tmp_path, capsys):
    table = tmp_path / "table.json"
    table.write_text('{"both": "count"}')
    assert main([*CONTESTED, "--table", str(table), "--set", "tell_tale.both=cancel"]) == 2
    capsys.readouterr()
    assert main([*CONTESTED, "--set", "both=count", "--both", "cancel"]) == 2
    capsys.readouterr()
    assert main([*CONTESTED, "--set", "both=count"]) == 0


@pytest.mark.parametrize("args,words", [
    (["--set", "nope=1"], "no house ruling called 'nope'"),
    (["--set", "tell_tale.both=maybe"], "must be one of cancel, count"),
    (["--set", "both"], "--set takes NAME=VALUE"),
    (["--set", "rpgdl.trainwreck_limit=1_000"], "digits 0 to 9"),
])
def test_a_bad_table_setting_is_refused_in_words(capsys, args, words):
    assert main(["tell_tale.resolve_attack", "--power", "5", "--d20", "3", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_a_table_file_that_is_not_a_table_is_refused(tmp_path, capsys):
    for text in ("[1, 2]", "not json", '{"both": {"x": 1}}'):
        table = tmp_path / "table.json"
        table.write_text(text)
        assert main(["tell_tale.resolve_attack", "--power", "5", "--d20", "3", "--table", str(table)]) == 2
        assert "table settings file" in capsys.readouterr().err
    assert main(["tell_tale.resolve_attack", "--power", "5", "--d20", "3", "--table", str(tmp_path / "missing.json")]) == 2
    assert "cannot be read" in capsys.readouterr().err


# ---------------------------------------------------------------- nothing printed is a terminal command

# What must never reach a terminal raw: control characters but the line break, direction marks, overrides and
# isolates, zero-width characters. Written here apart from the package's own list, so the two check each other.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
ECHOED = [  # calculators whose answer repeats a name typed in
    ["tell_tale.check_deck", "--decklist", "5 Bolt\x1bc\x07\u202e"],  # no bracket: a '[' or ']' in a decklist is a tag's (deck_tags)
    ["rpgdl.check_season_deck", "--cards", "5 Axe\x1b[2J\u2066man"],
    ["rpgdl.check_nom_pool", "--duelists", "Wor\x1b[31mker\u200b 8, Heavy\nwor\x1b[31mker\u200b 8, Heavy"],
]


@pytest.mark.parametrize("args", ECHOED, ids=[a[0] for a in ECHOED])
def test_a_name_in_an_answer_is_printed_with_its_control_characters_escaped(capsys, args):
    main(args)
    out, err = capsys.readouterr()
    assert not RAW.search(out + err), repr(out + err)
    assert "\\x1b" in out  # shown, as an escape: the reader sees what was typed


@pytest.mark.parametrize("args", ECHOED, ids=[a[0] for a in ECHOED])
def test_json_output_escapes_them_too(capsys, args):
    main([*args, "--json"])
    out = capsys.readouterr().out
    assert not RAW.search(out) and out.isascii()
    assert "\\u001b" in out and json.loads(out)["ok"]  # the name is there, escaped as JSON


def _season_with_names(first, second):
    """A season as a state could hold it if a name ever passed the check: for the printing alone."""
    state = runner.track("rpgdl.season", "", '{"do": "show"}')["state"]
    state["players"]["first"]["name"], state["players"]["second"]["name"] = first, second
    return state


@pytest.mark.parametrize("as_json", [False, True])
def test_a_trackers_headline_details_and_state_are_printed_escaped(capsys, monkeypatch, as_json):
    state = _season_with_names("Ana\x1b[2J", "\u202eBen")
    answer = {"ok": True, "tracker": "rpgdl.season", "state": state, "outcome": "show", "headline": "Step \x07\x1b]0;title\x07",
              "details": ["a \u2066detail\u2069", "zero\u200bwidth"], "rules": [], "dice": {"d6 \x1b": "3"}, "seed": None}
    monkeypatch.setattr(cli_module, "track", lambda *a, **k: answer)
    assert main(["track", "rpgdl.season", "--do", '{"do": "show"}', *(["--json"] if as_json else [])]) == 0
    out, err = capsys.readouterr()
    assert not RAW.search(out + err), repr(out)
    if not as_json:
        assert "1. Step \\x07\\x1b]0;title\\x07" in out and "Ana\\x1b[2J against \\u202eBen" in out


def test_a_trackers_error_is_printed_escaped(capsys, monkeypatch):
    monkeypatch.setattr(cli_module, "track", lambda *a, **k: {"ok": False, "error": "No \x1b[2Jname\u202e.", "field": "name"})
    assert main(["track", "rpgdl.season", "--do", '{"do": "show"}']) == 2
    err = capsys.readouterr().err
    assert not RAW.search(err) and err.endswith("No \\x1b[2Jname\\u202e.\n")


def test_what_argparse_echoes_of_the_command_line_is_escaped(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["tell_tale.resolve_attack", "--power", "5", "--d20", "3", "--colour\x1b[2J"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and not RAW.search(err) and "--colour\\x1b[2J" in err


def test_a_name_with_a_terminal_command_never_reaches_the_terminal():
    """The whole way, in a real process: the season refuses the name, and nothing raw is printed."""
    done = _process(["track", "rpgdl.season", "--do", json.dumps({"do": "player", "player": "first", "name": "\x1b]0;owned\x07Ana"})], timeout=60)
    _quiet(done.stderr)
    assert not RAW.search(done.stdout.decode() + done.stderr.decode())
    assert done.returncode == 2 and b"holds a control or direction character" in done.stderr


# ---------------------------------------------------------------- bad files and options: one sentence, exit 2, before any step

SEASON_STEP = ["--do", json.dumps({"do": "player", "player": "first", "name": "Ana"})]


def _one_sentence(err: str, *words: str) -> None:
    assert err.count("\n") == 1 and err.endswith(".\n") and "Traceback" not in err, err
    for word in words:
        assert word in err, err


DEEP = "[" * 50_000 + "]" * 50_000  # 100,000 characters: within every size limit, far past any nesting a file needs
NESTED = [
    ("table settings", lambda f: [*ATTACK, "--table", f], DEEP),
    ("saved season", lambda f: ["track", "rpgdl.season", f], '{"tracker": "rpgdl.season", "version": 1, "log": ' + DEEP + "}"),
    ("list of actions", lambda f: ["track", "tell_tale.encounter", f], '[{"do": "show", "x": ' + DEEP + "}]"),
]


@pytest.mark.parametrize("what, args, text", NESTED, ids=[n[0] for n in NESTED])
def test_a_file_nested_50000_deep_is_one_sentence(tmp_path, capsys, what, args, text):
    path = tmp_path / "deep.json"
    path.write_text(text)
    assert main(args(str(path))) == 2
    out, err = capsys.readouterr()
    assert out == ""
    _one_sentence(err, repr(str(path)), "nested too deep")


def test_a_do_nested_too_deep_is_refused_before_any_step(capsys):
    assert main(["track", "rpgdl.season", *SEASON_STEP, "--do", "[" * 200 + "]" * 200]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    _one_sentence(err, "--do", "nested too deep")


@pytest.mark.parametrize("target", ["folder", "no/such/folder/x.json"])
def test_a_save_target_that_cannot_be_written_is_refused_before_any_step(tmp_path, capsys, target):
    save = str(tmp_path if target == "folder" else tmp_path / target)
    assert main(["track", "rpgdl.season", *SEASON_STEP, "--save", save]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no step ran
    _one_sentence(err, "--save", repr(save))


def test_a_save_folder_without_write_permission_is_refused_before_any_step(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False)  # as for anyone but root in a folder not theirs
    assert main(["track", "rpgdl.season", *SEASON_STEP, "--save", str(tmp_path / "x.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and not (tmp_path / "x.json").exists()
    _one_sentence(err, "--save", "permission denied")


def test_a_save_that_works_still_saves(tmp_path, capsys):
    save = tmp_path / "season.json"
    assert main(["track", "rpgdl.season", *SEASON_STEP, "--save", str(save)]) == 0
    assert json.loads(save.read_text())["players"]["first"]["name"] == "Ana"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("args", [lambda f: ["track", "tell_tale.encounter", f], lambda f: [*ATTACK, "--table", f]], ids=["track", "table"])
def test_a_named_pipe_is_refused_at_once(tmp_path, args):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = _process(args(str(fifo)), timeout=60)  # a pipe nobody writes to would wait for ever
    _quiet(done.stderr)
    assert done.returncode == 2 and done.stdout == b""
    _one_sentence(done.stderr.decode(), repr(str(fifo)), "not a regular file")


@pytest.mark.parametrize("args", [lambda f: ["track", "rpgdl.season", f], lambda f: [*ATTACK, "--table", f]], ids=["track", "table"])
def test_a_folder_is_refused_as_a_folder(tmp_path, capsys, args):
    assert main(args(str(tmp_path))) == 2
    _one_sentence(capsys.readouterr().err, repr(str(tmp_path)), "is a folder")


@pytest.mark.parametrize("data", [b"\xff\xfe\x00\x01garbage", b'{"tracker": "caf\xe9"}', bytes(range(128, 256))], ids=["noise", "latin-1", "high"])
@pytest.mark.parametrize("args", [lambda f: ["track", "rpgdl.season", f], lambda f: [*ATTACK, "--table", f]], ids=["track", "table"])
def test_a_file_that_is_not_utf8_text_is_named_in_the_sentence(tmp_path, capsys, data, args):
    path = tmp_path / "season.json"
    path.write_bytes(data)
    assert main(args(str(path))) == 2
    out, err = capsys.readouterr()
    assert out == ""
    _one_sentence(err, repr(str(path)), "is not text (UTF-8)")


SHOW = {"do": "show"}
TOO_MANY = [  # (actions in FILE or None, --do options, what the sentence names)
    (1_001, 0, "The file"),
    (1_000, 1, "the --do options"),
    (None, 1_001, "The --do options"),
]


@pytest.mark.parametrize("in_file, options, names", TOO_MANY, ids=["file", "file and options", "options"])
def test_a_run_takes_at_most_1000_actions_and_says_so_before_any_step(tmp_path, capsys, in_file, options, names):
    args = ["track", "rpgdl.season"]
    if in_file is not None:
        path = tmp_path / "actions.json"
        path.write_text(json.dumps([SHOW] * in_file))
        args.append(str(path))
    args += ["--do", json.dumps(SHOW)] * options
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""  # refused before any step runs (6,000 steps take minutes)
    _one_sentence(err, names, "at most 1,000")


def test_1000_actions_still_run(tmp_path, capsys):
    path = tmp_path / "actions.json"
    path.write_text(json.dumps([SHOW] * 999))
    assert main(["track", "rpgdl.season", str(path), "--do", json.dumps(SHOW)]) == 0
    assert "1000. " in capsys.readouterr().out


def test_the_help_states_the_cap_on_actions(capsys):
    with pytest.raises(SystemExit):
        main(["track", "--help"])
    assert "at most 1,000 actions in one run" in " ".join(capsys.readouterr().out.split())


# ---------------------------------------------------------------- the installed command


def test_the_console_entry_point_is_the_function_that_handles_a_closed_pipe():
    """pyproject's rules-calc, called as the installed script calls it, with a reader that closed the pipe."""
    target = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["rules-calc"]
    module, _, function = target.partition(":")
    script = f"import importlib, sys; sys.exit(importlib.import_module({module!r}).{function}())"
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-c", script, *ATTACK], cwd=ROOT, stdout=write, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(write)
    _quiet(done.stderr)
    assert done.returncode == 1
