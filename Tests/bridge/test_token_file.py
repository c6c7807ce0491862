"""`serve` keeps its control token for the next run of the same recordings folder, in a file only
its owner may read (docs/VIEWER.md, "The token across restarts")."""
import os
import stat
import subprocess

import pytest

from conftest import BINARY, start, start_on


@pytest.fixture
def state_home(tmp_path, monkeypatch):
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder


def token_files(state_home):
    folder = state_home / "pantrace"
    return sorted(folder.glob("serve-*.token")) if folder.exists() else []


def run_once(recordings, *extra):
    """One run of `serve` on `recordings`, stopped at once; the stopped server (its output kept)."""
    server = start_on(recordings, extra=extra)
    server.stop()
    return server


def first_run(tmp_path, library_template):
    server = start(tmp_path, library_template)
    server.stop()
    return server


def remembered(file):
    return file.read_text().split("\n")[0]


def test_the_token_is_kept_owner_only_and_reused_by_the_next_run(tmp_path, library_template, state_home):
    first = first_run(tmp_path, library_template)
    [file] = token_files(state_home)
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert stat.S_IMODE(file.parent.stat().st_mode) == 0o700
    assert remembered(file) == first.token
    assert "kept in" in first.stdout(), first.stdout()
    second = run_once(first.recordings)  # a restart of the same folder
    assert second.token == first.token
    assert "kept from the last run" in second.stdout(), second.stdout()


def test_another_folder_gets_another_token(tmp_path, library_template, state_home):
    a = first_run(tmp_path / "a", library_template)
    b = first_run(tmp_path / "b", library_template)
    assert a.token != b.token
    assert len(token_files(state_home)) == 2


def test_a_file_others_may_read_is_not_trusted_and_is_replaced(tmp_path, library_template, state_home):
    first = first_run(tmp_path, library_template)
    [file] = token_files(state_home)
    os.chmod(file, 0o644)
    second = run_once(first.recordings)
    assert second.token != first.token
    assert "others may read or write it (mode 0644); made a new one" in second.stderr(), second.stderr()
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert remembered(file) == second.token


def test_a_file_with_something_else_in_it_is_replaced(tmp_path, library_template, state_home):
    first = first_run(tmp_path, library_template)
    [file] = token_files(state_home)
    file.write_text("not a token\n")
    second = run_once(first.recordings)
    assert second.token != first.token
    assert "does not hold a token for" in second.stderr(), second.stderr()


def test_new_token_replaces_it_and_a_given_token_is_not_stored(tmp_path, library_template, state_home):
    first = first_run(tmp_path, library_template)
    [file] = token_files(state_home)
    renewed = run_once(first.recordings, "--new-token")
    assert renewed.token != first.token
    assert remembered(file) == renewed.token
    given = run_once(first.recordings, "--token", "f" * 32)
    assert given.token == "f" * 32
    assert remembered(file) == renewed.token
    assert "given with --token (not stored)" in given.stdout()


@pytest.mark.parametrize("token", ["abc", "x" * 15, "has space in it!!", "é" * 20])
def test_a_weak_or_odd_token_is_an_argument_error(token):
    result = subprocess.run([str(BINARY), "serve", "--port", "0", "--token", token], capture_output=True, text=True)
    assert result.returncode == 64
    assert "--token must be 16 to 256" in result.stderr


def test_sixteen_url_safe_characters_are_enough(tmp_path, library_template, state_home):
    server = start(tmp_path, library_template, extra=("--token", "Ab-_" * 4))
    server.stop()
    assert "given with --token" in server.stdout()


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_a_state_folder_another_user_owns_is_not_used(tmp_path, library_template, state_home):
    folder = state_home / "pantrace"
    folder.mkdir(parents=True, mode=0o700)
    os.chown(folder, 4242, 4242)
    first = first_run(tmp_path, library_template)
    assert "cannot remember the token" in first.stderr() and "is owned by another user (uid 4242)" in first.stderr(), first.stderr()
    assert "token: new for this run" in first.stdout()
    assert token_files(state_home) == []
    second = run_once(first.recordings)
    assert second.token != first.token


def test_a_state_folder_others_may_write_to_is_not_used(tmp_path, library_template, state_home):
    folder = state_home / "pantrace"
    folder.mkdir(parents=True)
    os.chmod(folder, 0o777)
    first = first_run(tmp_path, library_template)
    assert "others may write to" in first.stderr() and "(mode 0777)" in first.stderr(), first.stderr()
    assert token_files(state_home) == []


def test_a_folder_above_the_state_folder_others_may_write_to_is_not_trusted(tmp_path, library_template, state_home):
    state_home.mkdir(parents=True)
    os.chmod(state_home, 0o777)  # no sticky bit: anyone may rename pantrace/ away
    first = first_run(tmp_path, library_template)
    assert f"others may write to {state_home}, above" in first.stderr(), first.stderr()
    os.chmod(state_home, 0o1777)  # sticky, as /tmp: others cannot rename what is not theirs
    second = run_once(first.recordings)
    assert "warning" not in second.stderr(), second.stderr()
    assert len(token_files(state_home)) == 1


def test_a_recordings_path_with_a_newline_keeps_its_token(tmp_path, library_template, state_home):
    server = start(tmp_path / "two\nlines", library_template)
    server.stop()
    [file] = token_files(state_home)
    assert file.read_bytes().endswith(b"two\nlines/recordings\n")
    second = run_once(server.recordings)
    assert second.token == server.token
    assert "kept from the last run" in second.stdout(), second.stdout() + second.stderr()


def test_a_symlinked_state_folder_gets_nothing_made_inside_it(tmp_path, library_template, state_home):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    state_home.symlink_to(elsewhere, target_is_directory=True)
    first = first_run(tmp_path, library_template)
    assert f"{state_home} is a symbolic link" in first.stderr(), first.stderr()
    assert list(elsewhere.iterdir()) == [], "no pantrace/ made through the link"
    # A real folder there is used as before.
    state_home.unlink()
    state_home.mkdir()
    second = run_once(first.recordings)
    assert "warning" not in second.stderr(), second.stderr()
    assert len(token_files(state_home)) == 1
