"""The parsed CSS kept between starts (railgames/app/css_cache.py): what it gives back
is what parsing gives, a second start parses nothing, and a bad file changes nothing."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from textual.css.model import RuleSet
from textual.css.parse import parse
from textual.css.stylesheet import Stylesheet

from railgames.app import css_cache
from railgames.app.main import RailgamesApp
from tests.app.driving import run_async


@pytest.fixture()
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's cache as at a new start: nothing read, nothing parsed yet."""
    monkeypatch.setattr(css_cache, "_entries", {})
    monkeypatch.setattr(css_cache, "_fresh", {})
    monkeypatch.setitem(css_cache._state, "read", False)


def comparable(rules: list[RuleSet]) -> list[Any]:
    """A rule set's every field; a layout (an object made afresh each time) by its name."""
    out = []
    for rule in rules:
        styles = {k: (v.name if k == "layout" else v) for k, v in rule.styles.get_rules().items()}
        out.append((rule.selector_set, styles, rule.errors, rule.is_default_rules,
                    rule.tie_breaker, rule.selector_names, rule.pseudo_classes))
    return out


def parse_calls(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every CSS text Textual's own parser is given from now on."""
    import textual.css.stylesheet as stylesheet_module

    calls: list[Any] = []
    real = stylesheet_module.parse

    def parse(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[2])  # where the CSS came from
        return real(*args, **kwargs)

    monkeypatch.setattr(stylesheet_module, "parse", parse)
    return calls


async def start_and_stop() -> None:
    app = RailgamesApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()


@run_async
async def test_a_second_start_parses_no_css_and_gets_what_parsing_gives(
        fresh_cache: None, monkeypatch: pytest.MonkeyPatch, app_environment: Path) -> None:
    calls = parse_calls(monkeypatch)
    await start_and_stop()
    assert calls, "the first start parses"
    path = Path(css_cache._path())
    assert path.is_file() and path.is_relative_to(app_environment)
    # A new process: it knows only the file.
    monkeypatch.setattr(css_cache, "_entries", {})
    monkeypatch.setitem(css_cache._state, "read", False)
    calls.clear()
    await start_and_stop()
    assert calls == []
    # Each result read back is what parsing the same CSS gives now.
    stamp, entries = pickle.loads(path.read_bytes())
    assert stamp == css_cache._stamp()
    assert len(entries) >= 10
    for key, pickled in entries.items():
        css, read_from, is_default, tie_breaker, scope, variables = key
        tokens = Stylesheet(variables=dict(variables))._variable_tokens
        parsed = list(parse(scope, css, read_from, variable_tokens=tokens,
                            is_default_rules=is_default, tie_breaker=tie_breaker))
        assert comparable(pickle.loads(pickled)) == comparable(parsed), read_from


@pytest.mark.parametrize("content", [b"", b"not a pickle", pickle.dumps(("old stamp", {})),
                                     pickle.dumps(((1, "x"), ["not", "a", "dict"]))])
@run_async
async def test_a_cache_file_that_cannot_be_used_is_ignored(
        fresh_cache: None, monkeypatch: pytest.MonkeyPatch, content: bytes) -> None:
    path = Path(css_cache._path())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    calls = parse_calls(monkeypatch)
    await start_and_stop()
    assert calls, "parsed as if there were no file"
    stamp, _ = pickle.loads(path.read_bytes())  # and written anew
    assert stamp == css_cache._stamp()


@run_async
async def test_the_theme_is_part_of_the_key(fresh_cache: None,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    await start_and_stop()
    calls = parse_calls(monkeypatch)
    app = RailgamesApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.theme = "textual-light"
        await pilot.pause()
    assert calls, "another theme's variables: parsed, not taken from the dark theme's"
