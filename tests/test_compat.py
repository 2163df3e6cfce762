"""railgames/compat.py, the one door to the private parts of the libraries the project
runs on: each private name it uses is still there, of the kind and signature it
expects, and does what it is used for; the versions it was written for are the ones
pyproject.toml pins and the ones installed; and no other module uses such a name.

What the layout and CSS patches change on a screen is checked by tests/app
(test_speed_parts.py, test_css_cache.py, the snapshots); agent and X11 forwarding
refused over SSH by tests/test_host_hostile.py.
"""

from __future__ import annotations

import asyncio
import inspect
import io
import re
import sys
import tomllib
from concurrent.futures import ProcessPoolExecutor
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, PrivateAttr, RootModel, field_serializer

from railgames import compat
from tests.app.driving import run_async

ROOT = Path(__file__).resolve().parents[1]


def params(func: Any) -> list[str]:
    return list(inspect.signature(func).parameters)


# ---------------------------------------------------------------- versions and pins


def pins() -> dict[str, str]:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        deps = tomllib.load(handle)["project"]["dependencies"]
    out = {}
    for dep in deps:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[a-z,]+\])?\s*((?:==|~=|>=)\S+)",
                             dep.strip())
        assert match, dep
        out[match[1].lower()] = match[2]
    return out


def test_pyproject_pins_what_compat_was_written_for() -> None:
    pinned = pins()
    for name, spec in compat.WRITTEN_FOR.items():
        assert pinned[name] == spec, name


@pytest.mark.parametrize("name", sorted(compat.WRITTEN_FOR))
def test_installed_versions_are_the_pinned_ones(name: str) -> None:
    installed = version(name)
    assert compat.version_matches(installed, pins()[name]), (name, installed)
    assert compat._installed_version(name) == installed


def test_version_specifiers() -> None:
    assert compat.version_matches("8.2.8", "==8.2.8")
    assert not compat.version_matches("8.2.9", "==8.2.8")
    assert compat.version_matches("2.14.4", "~=2.14.4")
    assert compat.version_matches("2.14.7", "~=2.14.4")
    assert not compat.version_matches("2.14.3", "~=2.14.4")
    assert not compat.version_matches("2.15.0", "~=2.14.4")
    assert not compat.version_matches("2.14.5rc1", "~=2.14.4")


def test_no_word_when_the_versions_are_the_ones_written_for() -> None:
    out = io.StringIO()
    assert compat.check_versions(out)
    assert out.getvalue() == ""


def test_another_version_is_named_on_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(compat.WRITTEN_FOR, "rich", "==14.0.0")
    out = io.StringIO()
    assert not compat.check_versions(out)
    text = out.getvalue()
    assert text.count("\n") == 1 and text.startswith("railgames: ")
    assert f"Rich {version('rich')} (written for 14.0.0)" in text
    assert "Textual" not in text


def test_unreadable_metadata_says_nothing_and_stops_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str) -> str:
        raise ValueError("unreadable")

    monkeypatch.setattr(compat, "_installed_version", broken)
    out = io.StringIO()
    assert compat.check_versions(out)
    assert out.getvalue() == ""


# ---------------------------------------------------------------- nothing elsewhere


def test_no_private_name_of_a_library_is_used_outside_compat() -> None:
    from benchmarks.private_names import COMPAT, touchpoints

    found = touchpoints()
    outside = [str(t) for t in found if t.path != COMPAT]
    assert outside == []
    assert len(found) > 20  # (the scan does see the ones in compat.py)


def test_run_exit_functions_runs_what_atexit_holds_once() -> None:
    # In a process of its own: they are every function registered, pytest's included.
    import subprocess

    code = ("import atexit; from railgames import compat; atexit.register(print, 'ran'); "
            "compat.run_exit_functions(); print('after')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.split() == ["ran", "after"], done.stderr


# ---------------------------------------------------------------- pydantic


class Plain(BaseModel):
    model_config = ConfigDict(frozen=True)
    a: int
    b: str = "x"


def test_model_without_validation_is_what_model_construct_makes() -> None:
    made = compat.model_without_validation(Plain, {"a": 1, "b": "x"}, {"a"})
    expected = Plain.model_construct(a=1)
    assert made == expected
    assert made.model_fields_set == expected.model_fields_set == {"a"}
    assert made.model_dump() == expected.model_dump()
    assert made.model_dump(exclude_unset=True) == {"a": 1}
    assert made.model_dump_json() == expected.model_dump_json()
    for name in ("__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__"):
        assert getattr(made, name) == getattr(expected, name), name


def test_plain_model_knows_what_model_construct_does_more_for() -> None:
    class Hooked(BaseModel):
        a: int = 0

        def model_post_init(self, context: Any) -> None:
            pass

    class Private(BaseModel):
        a: int = 0
        _secret: int = PrivateAttr(default=0)

    class Extra(BaseModel):
        model_config = ConfigDict(extra="allow")

    class Root(RootModel[int]):
        pass

    assert compat.plain_model(Plain)
    for cls in (Hooked, Private, Extra, Root):
        assert not compat.plain_model(cls), cls


def test_custom_serializers() -> None:
    class Shown(BaseModel):
        a: int = 0

        @field_serializer("a")
        def _a(self, value: int) -> str:
            return str(value)

    class Root(RootModel[int]):
        pass

    assert not compat.custom_serializers(Plain)
    assert compat.custom_serializers(Shown)
    assert compat.custom_serializers(Root)


# ---------------------------------------------------------------- standard library


def test_loop_busy_sees_a_ready_callback() -> None:
    async def look() -> tuple[bool, bool]:
        loop = asyncio.get_running_loop()
        idle = compat.loop_busy(loop)
        loop.call_soon(lambda: None)
        return idle, compat.loop_busy(loop)

    assert asyncio.run(look()) == (False, True)


def _square(n: int) -> int:
    return n * n


def test_pool_processes_are_the_pools_workers() -> None:
    pool = ProcessPoolExecutor(max_workers=1)
    try:
        assert compat.pool_processes(pool) == []
        assert pool.submit(_square, 3).result(timeout=60) == 9
        workers = compat.pool_processes(pool)
        assert len(workers) == 1 and workers[0].is_alive()
    finally:
        pool.shutdown(wait=True)
    assert compat.pool_processes(pool) == []


# ---------------------------------------------------------------- Rich


def test_rich_style_ansi_is_its_codes_once_worked_out() -> None:
    from rich.color import ColorSystem
    from rich.style import Style

    style = Style(bold=True, color="red")
    assert compat.style_ansi(style) is None
    style.render("x", color_system=ColorSystem.TRUECOLOR)
    assert compat.style_ansi(style) == "1;31"


def test_rich_console_color_system() -> None:
    from rich.color import ColorSystem
    from rich.console import Console

    assert compat.console_color_system(Console(color_system="truecolor")) is ColorSystem.TRUECOLOR
    assert compat.console_color_system(Console(color_system=None)) is None


def test_rich_group_renderables_as_given() -> None:
    from rich.console import Group
    from rich.text import Text

    parts = (Text("a"), Text("b"))
    assert compat.group_renderables(Group(*parts)) == parts


def test_rich_single_cell_widths() -> None:
    assert compat.is_single_cell_widths("abc é")
    assert not compat.is_single_cell_widths("中")


# ---------------------------------------------------------------- Textual


def test_textual_methods_patched_or_overridden_have_the_expected_signatures() -> None:
    from textual.app import App
    from textual.css.stylesheet import Stylesheet
    from textual.dom import DOMNode
    from textual.screen import Screen
    from textual.widget import Widget
    from textual.widgets import OptionList

    assert params(Widget._size_updated)[:5] == [
        "self", "size", "virtual_size", "container_size", "layout"]
    assert params(Widget._refresh_scrollbars) == ["self"]
    assert params(Widget._scroll_update) == ["self", "virtual_size"]
    assert params(Widget.refresh) == ["self", "regions", "repaint", "layout", "recompose"]
    assert params(Widget._clear_arrangement_cache) == ["self"]
    assert params(Widget._render) == ["self"]
    assert params(Screen._refresh_layout) == ["self", "size", "scroll"]
    assert params(Screen._compositor_refresh) == ["self"]
    assert params(Screen._on_screen_resume) == ["self", "event"]
    assert params(Stylesheet._parse_rules) == [
        "self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"]
    assert params(App._display) == ["self", "screen", "renderable"]
    assert params(DOMNode._get_default_css) == ["self"]
    assert params(OptionList._update_lines) == ["self"]
    assert params(OptionList._clear_caches) == ["self"]
    assert "_on_resize" in vars(OptionList)  # (a handler of Resize: ChoiceListParts' replaces it)


def test_textual_compositor_updates() -> None:
    import textual._compositor as compositor

    for name in ("ChopsUpdate", "LayoutUpdate", "CompositorUpdate"):
        assert getattr(compat, name) is getattr(compositor, name)
    assert issubclass(compat.ChopsUpdate, compat.CompositorUpdate)
    assert issubclass(compat.LayoutUpdate, compat.CompositorUpdate)
    assert compat.TextUpdate("\x1b[H").render_segments(None) == "\x1b[H"


@run_async
async def test_textual_private_state_we_read() -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import OptionList, RichLog

    seen: dict[str, Any] = {}

    class Probe(App[None]):
        def compose(self) -> ComposeResult:
            yield RichLog()
            yield OptionList("a", "b")

    app = Probe()
    assert compat.app_loop(app) is None
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        assert compat.app_loop(app) is asyncio.get_running_loop()
        for name in ("_driver", "_running", "_closed", "_batch_count",
                     "_previous_cursor_position"):
            assert hasattr(app, name), name
        assert app._batch_count == 0 and app._running and not app._closed
        log = app.query_one(RichLog)
        assert compat.log_size_known(log)
        log.write("one")
        assert len(log._line_cache) >= 0
        compat.forget_drawn_lines(log)
        assert len(log._line_cache) == 0
        options = app.query_one(OptionList)
        assert compat.layout_pending(options) is False
        options.add_option("c")
        assert compat.layout_pending(options) is True
        compat.drop_layout(options)
        assert compat.layout_pending(options) is False
        compat.update_scroll_bars(log, log.virtual_size)
        screen = app.screen
        assert isinstance(screen._callbacks, list)
        # (What call_after_refresh leads to, once its message is handled.)
        screen._invoke_later(lambda: seen.setdefault("called", True), screen)
        assert compat.screen_callbacks_due(screen)
        await pilot.pause()
        for _ in range(50):  # a busy machine may queue a refresh's own callbacks meanwhile
            if not compat.screen_callbacks_due(screen):
                break
            await pilot.pause()
        assert seen == {"called": True} and not compat.screen_callbacks_due(screen)
        stylesheet = app.stylesheet
        cache = stylesheet._parse_cache  # (an LRU cache: looked in, and written to)
        assert hasattr(cache, "__contains__") and hasattr(cache, "__setitem__")
        assert isinstance(stylesheet._variables, dict)
        assert compat.widget_visual(options) is not None


@run_async
async def test_sized_in_layout_hears_of_a_new_size_within_the_layout() -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    heard: list[tuple[int, int]] = []

    class Box(compat.SizedInLayout, Static):
        def resized_in_layout(self) -> None:
            heard.append((self.size.width, self.size.height))

    class Probe(App[None]):
        def compose(self) -> ComposeResult:
            yield Box("box")

    app = Probe()
    async with app.run_test(size=(30, 8)) as pilot:
        await pilot.pause()
        assert heard and heard[-1][0] == 30
        await pilot.resize_terminal(20, 8)
        await pilot.pause()
        assert heard[-1][0] == 20


@run_async
async def test_skipped_default_css_and_the_screen_resume_hook() -> None:
    from textual.app import App, ComposeResult
    from textual.screen import Screen
    from textual.widgets import Button

    class Plainer(compat.SkipsDefaultCSS, Button):
        SKIPPED_DEFAULT_CSS = ("Button.DEFAULT_CSS",)

    resumed: list[bool] = []

    class Home(compat.ScreenResumeHook, Screen[None]):
        def compose(self) -> ComposeResult:
            yield Plainer("x")

        def before_screen_resume(self, event: Any) -> None:
            resumed.append(event.refresh_styles)

    class Probe(App[None]):
        def get_default_screen(self) -> Screen[None]:
            return Home()

    app = Probe()
    async with app.run_test() as pilot:
        await pilot.pause()
        sources = [source[0][1] for source in app.query_one(Plainer)._get_default_css()]
        assert "Button.DEFAULT_CSS" not in sources
        assert [s[0][1] for s in Button()._get_default_css()].count("Button.DEFAULT_CSS") == 1
        assert resumed == [True]


# ---------------------------------------------------------------- asyncssh


def test_asyncssh_channel_handlers_we_replace() -> None:
    import asyncssh

    for name in ("_process_auth_agent_req_at_openssh_dot_com_request",
                 "_process_x11_req_request"):
        assert params(getattr(asyncssh.SSHServerChannel, name)) == ["self", "packet"], name


def test_refuse_forwarding_says_so_and_refuses() -> None:
    class Channel:
        def _process_x11_req_request(self, packet: Any) -> bool:
            raise AssertionError("replaced")

    said: list[str] = []
    channel = Channel()
    compat.refuse_forwarding(channel, said.append)
    assert isinstance(channel, Channel)
    assert channel._process_x11_req_request(None) is False
    assert channel._process_auth_agent_req_at_openssh_dot_com_request(None) is False  # type: ignore[attr-defined]
    assert said == ["X11 forwarding", "agent forwarding"]


@run_async
async def test_the_registered_hook_and_a_screen_s_own_bindings() -> None:
    from textual.app import App, ComposeResult
    from textual.binding import Binding, BindingsMap
    from textual.screen import Screen
    from textual.widgets import Static

    registered: list[Any] = []

    class Marked(compat.RegisteredHook, Static):
        def registered(self, app: Any) -> None:
            registered.append(app)

    pressed: list[str] = []

    class Home(Screen[None]):
        def __init__(self) -> None:
            super().__init__()
            keys = dict(compat.node_bindings(self).key_to_bindings)
            keys["x"] = [Binding("x", "note('x')", "Ex")]
            compat.set_node_bindings(self, BindingsMap.from_keys(keys))

        def compose(self) -> ComposeResult:
            yield Marked("m")

        def action_note(self, word: str) -> None:
            pressed.append(word)

    class Probe(App[None]):
        def get_default_screen(self) -> Screen[None]:
            return Home()

    app = Probe()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert registered == [app]
        await pilot.press("x")
        await pilot.pause()
    assert pressed == ["x"]


def test_before_validators() -> None:
    from pydantic import field_validator, model_validator

    def twice(value: Any) -> Any:
        return value * 2

    class Before(BaseModel):
        a: int = 0
        b: int = 0
        _a = field_validator("a", "b", mode="before")(twice)

    class After(BaseModel):
        a: int = 0
        _a = field_validator("a", mode="after")(twice)

    class Whole(BaseModel):
        a: int = 0

        @model_validator(mode="after")
        def _whole(self) -> Any:
            return self

    class Made(BaseModel):
        a: int = 0

        def __init__(self, **data: Any) -> None:
            super().__init__(**data)

    assert compat.before_validators(Plain) == {}
    assert compat.before_validators(Before) == {"a": [twice], "b": [twice]}
    for cls in (After, Whole, Made):
        assert compat.before_validators(cls) is None, cls
