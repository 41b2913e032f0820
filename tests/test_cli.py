"""The command line as a shell uses it: pipes, negative numbers, bad input.

Bad input prints one sentence and exits 2; nothing ever prints a traceback.
Most cases call main() in this process; a few need a real process (a pipe
the reader closed, the terminal's encoding).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


# ---------------------------------------------------------------- table settings (issue 15)

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
