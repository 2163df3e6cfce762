"""The register of players: names that belong to their players, read strictly, changed safely;
the checks at login, the failed-login limit and the operator's commands, without any network."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from railgames.core.errors import IllegalAction, RailgamesError, RecordError
from railgames.net import players as players_module
from railgames.net.players import (
    LoginLimiter,
    Player,
    Players,
    Register,
    apply_admin,
    check_key,
    check_password,
    hash_passphrase,
    passphrase_matches,
    passphrase_problem,
)
from railgames.net.service import TableService
from railgames.net.tables import Login, Member

KEY_A = "SHA256:" + "A" * 43
KEY_B = "SHA256:" + "B" * 43
TABLE_PW = "table-pw"


@pytest.fixture
def players(tmp_path: Path) -> Players:
    return Players(tmp_path / "host")


def claim(players: Players, name: str, *, key: str | None = None,
          passphrase: str | None = None) -> None:
    player = Player(name=name, key=key,
                    passphrase=hash_passphrase(passphrase) if passphrase else None)
    assert players.reserve(player) is None
    players.write_claim(player)


# ------------------------------------------------------------------ passphrases
def test_a_passphrase_is_kept_only_as_a_salted_hash() -> None:
    one, two = hash_passphrase("purring loudly"), hash_passphrase("purring loudly")
    assert one != two  # a salt of its own each time
    assert "purring" not in one and one.startswith("scrypt$")
    assert passphrase_matches(one, "purring loudly") and passphrase_matches(two, "purring loudly")
    assert not passphrase_matches(one, "purring loudly ")
    assert not passphrase_matches(one, TABLE_PW)


def test_a_passphrase_is_hashed_at_full_cost_unless_the_tests_say_otherwise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(players_module.CHEAP_PASSPHRASES)
    full = hash_passphrase("purring loudly")
    assert full.split("$")[1:4] == [str(2**15), "8", "3"]
    for value in ("1", "yes", "TESTS-ONLY"):  # only the one exact value lowers it
        monkeypatch.setenv(players_module.CHEAP_PASSPHRASES, value)
        assert not players_module.cheap_passphrases()
    monkeypatch.setenv(players_module.CHEAP_PASSPHRASES, "tests-only")
    cheap = hash_passphrase("purring loudly")
    assert cheap.split("$")[1:4] == [str(2**10), "8", "1"]
    assert passphrase_matches(full, "purring loudly") and passphrase_matches(cheap, "purring loudly")
    assert not passphrase_matches(cheap, "purring loudly!")


def test_a_damaged_or_absurd_stored_hash_never_matches() -> None:
    good = hash_passphrase("purring loudly")
    kind, n, r, p, salt, digest = good.split("$")
    for stored in ("", "scrypt$", good[:-4], f"md5${n}${r}${p}${salt}${digest}",
                   f"scrypt${2**30}${r}${p}${salt}${digest}",  # would take minutes
                   f"scrypt${n}${r}${p}$!!${digest}"):
        assert not passphrase_matches(stored, "purring loudly")


def test_passphrase_rules() -> None:
    assert passphrase_problem("short", TABLE_PW) is not None
    assert passphrase_problem(TABLE_PW + "!", TABLE_PW) is None
    assert "table password" in str(passphrase_problem("our table secret", "our table secret"))
    assert passphrase_problem("tab\there!!", TABLE_PW) is not None
    assert passphrase_problem("x" * 201, TABLE_PW) is not None


# ------------------------------------------------------------------ the file
def test_claims_are_written_whole_and_read_back(players: Players) -> None:
    claim(players, "Cat", passphrase="purring loudly")
    claim(players, "ann", key=KEY_A)
    saved = json.loads(players.path.read_text())
    assert set(saved["players"]) == {"cat", "ann"}
    assert saved["players"]["cat"]["name"] == "Cat"
    assert "purring" not in players.path.read_text()
    again = Players(players.folder)  # another process: the host restarted, or admin
    owner, _ = again.find("CAT")
    assert owner is not None and owner.name == "Cat" and owner.passphrase is not None
    assert not list(players.folder.glob(".players-*"))  # no temporary file left


def test_two_writers_never_lose_each_others_change(players: Players) -> None:
    def add(prefix: str) -> None:
        mine = Players(players.folder)  # each its own reader, as two processes have
        for i in range(25):
            mine.update(lambda reg, n=f"{prefix}{i}": reg.players.__setitem__(
                n, Player(name=n, key=KEY_A)))

    threads = [threading.Thread(target=add, args=(p,)) for p in ("x", "y")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(players.read().players) == 50


@pytest.mark.parametrize("content, reason", [
    ("{not json", "not a readable register"),
    ('{"format": 1, "players": {}, "extra": 1}', "extra"),
    ('{"format": 2, "players": {}}', "register of players format 2"),
    ('{"format": 1, "players": {"cat": {"name": "Eve"}}}', "holds the player 'Eve'"),
    ('{"format": 1, "players": {"cat": {"name": "cat", "key": "ssh-rsa AAAA"}}}', "key"),
    ('{"format": 1, "players": {"a b": {"name": "a b"}}}', "players"),
    ("[" * 5000 + "]" * 5000, "nested"),
])
def test_a_damaged_register_is_refused_in_one_line(players: Players, content: str,
                                                   reason: str) -> None:
    players.folder.mkdir(parents=True)
    players.path.write_text(content)
    with pytest.raises(RecordError) as refused:
        players.read()
    assert str(players.path) in refused.value.reason and reason in refused.value.reason
    assert "\n" not in refused.value.reason


def test_a_fifo_a_folder_a_link_or_a_huge_file_is_not_read(players: Players,
                                                           tmp_path: Path) -> None:
    players.folder.mkdir(parents=True)
    os.mkfifo(players.path)  # would hang a plain open() for ever
    with pytest.raises(RecordError, match="not a regular file"):
        players.read()
    players.path.unlink()
    players.path.mkdir()
    with pytest.raises(RecordError, match="not a regular file"):
        players.read()
    players.path.rmdir()
    target = tmp_path / "elsewhere.json"
    target.write_text('{"format": 1}')
    players.path.symlink_to(target)
    with pytest.raises(RecordError, match="cannot be read"):
        players.read()
    players.path.unlink()
    with players.path.open("w") as handle:
        handle.truncate(5 * 1024 * 1024)
    with pytest.raises(RecordError, match="too large"):
        players.read()


def test_a_claim_is_held_at_once_so_two_logins_cannot_both_win(players: Players) -> None:
    first = Player(name="cat", passphrase=hash_passphrase("purring loudly"))
    second = Player(name="Cat", passphrase=hash_passphrase("another thing"))
    assert players.reserve(first) is None
    assert "just been claimed" in str(players.reserve(second))
    players.write_claim(first)
    assert "just been claimed" in str(players.reserve(second))
    # The same key claiming again (two sessions of one player) is no conflict.
    assert players.reserve(Player(name="ann", key=KEY_A)) is None
    assert players.reserve(Player(name="ann", key=KEY_A)) is None
    assert "just been claimed" in str(players.reserve(Player(name="ann", key=KEY_B)))


# ------------------------------------------------------------------ the checks at login
def test_a_new_name_comes_in_with_the_table_password_and_must_choose(players: Players) -> None:
    verdict = check_password(players, TABLE_PW, "cat", TABLE_PW)
    assert verdict.ok and verdict.unclaimed
    assert not check_password(players, TABLE_PW, "cat", "nope").ok
    assert check_password(players, None, "cat", TABLE_PW).end  # keys-only host


def test_an_owned_name_needs_its_passphrase_not_the_table_password(players: Players) -> None:
    claim(players, "Cat", passphrase="purring loudly")
    away = check_password(players, TABLE_PW, "cat", TABLE_PW)
    assert not away.ok and not away.end and "wrong passphrase" in away.reason
    back = check_password(players, TABLE_PW, "cat", "purring loudly")
    assert back.ok and not back.unclaimed and back.name == "Cat"


def test_a_name_claimed_by_a_key_admits_that_key_only(players: Players) -> None:
    assert check_key(players, "ann", KEY_A).unclaimed
    claim(players, "ann", key=KEY_A)
    mine = check_key(players, "ann", KEY_A)
    assert mine.ok and not mine.unclaimed
    other = check_key(players, "ann", KEY_B)
    assert not other.ok and "another player's key" in other.reason
    assert not check_password(players, TABLE_PW, "ann", TABLE_PW).ok


def test_bans_and_renames_refuse_with_the_reason(players: Players) -> None:
    claim(players, "ann", key=KEY_A)
    apply_admin(players, "ban", ["ann"])
    banned = check_key(players, "ann", KEY_A)
    assert not banned.ok and banned.end and "banned" in banned.reason
    apply_admin(players, "unban", ["ann"])
    assert check_key(players, "ann", KEY_A).ok
    apply_admin(players, "ban-key", [KEY_A])
    assert "key is banned" in check_key(players, "bob", KEY_A).reason
    apply_admin(players, "unban", [KEY_A])
    apply_admin(players, "rename", ["ann", "anna"])
    old = check_key(players, "ann", KEY_A)
    assert not old.ok and old.end and "now 'anna'" in old.reason
    new = check_key(players, "anna", KEY_A)
    assert new.ok and new.former == ("ann",)


# ------------------------------------------------------------------ failed logins
def test_failed_logins_are_a_token_bucket_per_address() -> None:
    now = [1000.0]
    limiter = LoginLimiter(per_minute=3, clock=lambda: now[0])
    assert [limiter.failed("10.0.0.1") for _ in range(3)] == [False, False, True]
    assert not limiter.allowed("10.0.0.1")
    assert limiter.allowed("10.0.0.2")  # another address has its own bucket
    now[0] += 10  # not yet a whole token back (one every 20 s)
    assert not limiter.allowed("10.0.0.1")
    now[0] += 10
    assert limiter.allowed("10.0.0.1")
    assert limiter.failed("10.0.0.1") and not limiter.allowed("10.0.0.1")
    now[0] += 60
    assert limiter.allowed("10.0.0.1")


# ------------------------------------------------------------------ the operator's commands
def test_admin_commands_change_the_register_and_say_what_to_end(players: Players) -> None:
    claim(players, "Cat", passphrase="purring loudly")
    claim(players, "ann", key=KEY_A)
    listed = apply_admin(players, "list", []).text
    assert "Cat" in listed and "passphrase" in listed and KEY_A in listed
    assert "purring" not in listed and "scrypt" not in listed

    kicked = apply_admin(players, "kick", ["cat"])
    assert kicked.kick is not None and kicked.kick.matches("Cat", (), None)
    assert not kicked.kick.matches("ann", (), KEY_A)

    renamed = apply_admin(players, "rename", ["cat", "Kitty"])
    assert renamed.changed == {"command": "rename", "name": "cat", "to": "Kitty"}
    assert renamed.kick is not None and renamed.kick.matches("cat", (), None)
    kitty, _ = players.find("kitty")
    assert kitty is not None and kitty.former == ["Cat"] and kitty.passphrase is not None
    with pytest.raises(RailgamesError, match="kept for Kitty"):
        apply_admin(players, "rename", ["ann", "cat"])  # the old name stays Kitty's
    with pytest.raises(RailgamesError, match="belongs to another player"):
        apply_admin(players, "rename", ["ann", "kitty"])

    banned = apply_admin(players, "ban", ["eve"])  # a name nobody has claimed yet
    assert banned.kick is not None and banned.kick.matches("Eve", (), None)
    assert "banned" in check_password(players, TABLE_PW, "eve", TABLE_PW).reason
    apply_admin(players, "unban", ["eve"])
    assert "eve" not in players.read().players

    key = apply_admin(players, "ban-key", [KEY_A])
    assert key.kick is not None and key.kick.matches("anyone", (), KEY_A)
    assert KEY_A in players.read().banned_keys

    assert "anyone may claim" in apply_admin(players, "forget", ["cat"]).text  # a former name
    assert check_password(players, TABLE_PW, "cat", TABLE_PW).unclaimed
    apply_admin(players, "forget", ["kitty"])
    assert players.find("kitty") == (None, None)

    for command, args, reason in [("fly", [], "no admin command"),
                                  ("rename", ["a"], "takes 2"),
                                  ("kick", ["a b"], "not a player's name"),
                                  ("ban-key", ["ssh-ed25519 AAAA"], "not a key fingerprint"),
                                  ("forget", ["nobody"], "no player called"),
                                  ("unban", ["ann"], "not banned")]:
        before = players.path.read_text()
        with pytest.raises(RailgamesError, match=reason):
            apply_admin(players, command, args)
        assert players.path.read_text() == before  # a refusal changes nothing


# ------------------------------------------------------------------ seats
def test_a_renamed_player_takes_back_the_seats_of_their_former_name(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    cat = Member(login=Login(name="cat"), send=lambda m: None)
    table = service.create(cat, "paris-connection", seats=3, humans=2)
    service.leave(cat)
    kitty = Member(login=Login(name="Kitty", former=("cat",)), send=lambda m: None)
    service.join(kitty, table.code)
    assert kitty.seat == 0
    # Someone else with a name of their own takes the free seat, never cat's.
    eve = Member(login=Login(name="eve"), send=lambda m: None)
    service.join(eve, table.code)
    assert eve.seat == 1
    with pytest.raises(IllegalAction, match="already playing"):
        service.join(Member(login=Login(name="cat"), send=lambda m: None), table.code)


def test_register_model_defaults_are_an_empty_register() -> None:
    assert Register().players == {} and Register().banned_keys == []


def test_reading_is_cached_until_the_file_changes(players: Players) -> None:
    claim(players, "ann", key=KEY_A)
    first = players.read()
    assert players.read() is first
    apply_admin(Players(players.folder), "ban", ["ann"])  # another process changes it
    owner, _ = players.find("ann")
    assert owner is not None and owner.banned


def test_a_claim_the_disk_refuses_holds_while_the_host_runs(players: Players,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import railgames.net.players as module

    ann = Player(name="ann", key=KEY_A)
    assert players.reserve(ann) is None

    def full_disk(path: Path, register: Register) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(module, "_write_register", full_disk)
    with pytest.raises(OSError):
        players.write_claim(ann)
    assert players.find("ann")[0] is ann  # still ann's
    assert players.reserve(Player(name="ann", key=KEY_B)) is not None


def test_a_claim_that_lost_the_name_in_the_file_meanwhile_is_dropped(players: Players) -> None:
    mine = Player(name="cat", passphrase=hash_passphrase("purring loudly"))
    assert players.reserve(mine) is None
    claim(Players(players.folder), "cat", key=KEY_B)  # another process got there first
    with pytest.raises(RailgamesError, match="claimed meanwhile"):
        players.write_claim(mine)
    owner, _ = players.find("cat")
    assert owner is not None and owner.key == KEY_B and "cat" not in players.reserved
