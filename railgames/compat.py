"""Every place the project reaches into what Textual, Rich, pydantic, asyncssh and the
standard library keep private: the one door to their internals.

Their private names (``Widget._size_updated``, ``Style._ansi``, a model's
``__pydantic_fields_set__``, ``ProcessPoolExecutor._processes``...) may move or
change meaning in any release, without a word in the changelog. Each use is here
and nowhere else (``benchmarks/private_names.py`` lists any that are not; a test
keeps the count outside this module at nil), each with a test in
tests/test_compat.py that fails if the name or what we rely on moved. On import
the installed versions are checked against those this module was written for (the
pins in pyproject.toml); another version gets one line on stderr, once.

Top level rather than under app/: the rules engine (core/engine.py) makes pydantic
models without validation, and core/ must not import the app. So this module
imports only the standard library when it is loaded; Textual, Rich and asyncssh
are imported by the functions and classes that need them, when they are first
used (``import railgames.core.engine`` does not load Textual).

The parts, by library:

* pydantic: ``model_without_validation``, ``plain_model``, ``custom_serializers``,
  ``before_validators``.
* the standard library: ``loop_busy`` (asyncio), ``pool_processes``
  (concurrent.futures).
* Rich: ``style_ansi``, ``console_color_system``, ``group_renderables``,
  ``is_single_cell_widths``.
* Textual, patches for every widget (``settle_layouts``) and for every stylesheet
  (``cache_parsed_css``), installed once by the app (app/main.py); and mixins that
  give a class of ours a public hook where Textual has a private method:
  ``ChoiceListParts``, ``SizedInLayout``, ``FrameFilter``, ``SkipsDefaultCSS``,
  ``ScreenResumeHook``; small readers (``layout_pending``, ``log_size_known``...).
  A patch is used only where a subclass cannot do it: the layout patches act on
  Textual's own widgets (scroll bars, footers, option lists of the command
  palette) and screens, and Textual makes its stylesheets itself.
* asyncssh: ``refuse_forwarding``.
"""

from __future__ import annotations

import os
import sys
import weakref
from importlib.util import find_spec
from operator import attrgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any as _Upstream  # the mixins below go before an upstream class
else:
    _Upstream = object

# ---------------------------------------------------------------- versions

# The versions this module was written for: the same specifiers as pyproject.toml
# (a test checks both agree, and that the installed versions match them).
WRITTEN_FOR = {
    "textual": "==8.2.8",
    "rich": "==15.0.0",
    "pydantic": "~=2.14.4",
    "asyncssh": "~=2.24.1",
}
DISPLAY_NAMES = {"textual": "Textual", "rich": "Rich", "pydantic": "pydantic",
                 "asyncssh": "asyncssh"}


def version_matches(found: str, spec: str) -> bool:
    """``found`` (as 2.14.4) meets ``spec`` (``==2.14.4``, or ``~=2.14.4``: 2.14.4 or a
    later 2.14.x)."""
    wanted = spec[2:]
    if spec.startswith("=="):
        return found == wanted
    if not spec.startswith("~="):
        raise ValueError(f"not a specifier this module reads: {spec}")
    try:
        have = [int(p) for p in found.split(".")]
        need = [int(p) for p in wanted.split(".")]
    except ValueError:
        return False
    return have[:len(need) - 1] == need[:-1] and have >= need


def _installed_version(name: str) -> str | None:
    """The installed version of ``name``, None if it is not installed.

    The expected version is looked for first as its metadata folder beside the package
    (one stat: reading the installed packages' metadata takes longer than the app's
    first frame); only when it is not there is the metadata read."""
    spec = find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = os.path.dirname(next(iter(spec.submodule_search_locations)))
    wanted = WRITTEN_FOR[name][2:]
    if os.path.isdir(os.path.join(folder, f"{name}-{wanted}.dist-info")):
        return wanted
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def version_mismatches() -> list[str]:
    """Each library installed in a version other than the one written for, as words."""
    out = []
    for name, spec in WRITTEN_FOR.items():
        try:
            found = _installed_version(name)
        except Exception:  # (metadata that cannot be read: nothing to say about it)
            continue
        if found is not None and not version_matches(found, spec):
            out.append(f"{DISPLAY_NAMES[name]} {found} (written for {spec.lstrip('=~')})")
    return out


def check_versions(stream: Any = None) -> bool:
    """Say on one line (stderr) which libraries are not the versions written for; True
    when they all are. The app still runs: what may go wrong is how it draws."""
    mismatches = version_mismatches()
    if mismatches:
        print("railgames: found " + ", ".join(mismatches)
              + "; the screen may not be drawn right: install the versions in pyproject.toml.",
              file=stream or sys.stderr)
    return not mismatches


check_versions()

# ---------------------------------------------------------------- pydantic

_new = object.__new__
_set = object.__setattr__


def model_without_validation(cls: type, values: dict[str, Any], fields_set: set[str]) -> Any:
    """A model of ``cls`` holding ``values`` as they are, ``fields_set`` named as given:
    what ``model_construct`` makes, without its look-ups (``values`` must hold every
    field; ``fields_set`` may be shared, models never change it)."""
    model = _new(cls)
    _set(model, "__dict__", values)
    _set(model, "__pydantic_fields_set__", fields_set)
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model


def plain_model(cls: Any) -> bool:
    """The model has no post-init hook, no private attributes, is not a root model and
    takes no extra fields: ``model_without_validation`` makes what pydantic would."""
    return not (cls.__pydantic_post_init__ or cls.__private_attributes__
                or cls.__pydantic_root_model__ or cls.model_config.get("extra") == "allow")


def custom_serializers(cls: Any) -> bool:
    """The model has serializers of its own (a field's or the whole model's), or is a
    root model: its JSON form is not simply its fields."""
    decorators = cls.__pydantic_decorators__
    return bool(decorators.field_serializers or decorators.model_serializers
                or cls.__pydantic_root_model__)


def before_validators(cls: Any) -> dict[str, list[Callable[[Any], Any]]] | None:
    """Field name -> the functions of the model's plain before-validators (each taking the
    value alone, as ``field_validator(..., mode="before")`` of a function makes), in the
    order declared; None when the model has any other validator, serializer or computed
    field, its own ``__init__``, or is generic: then its schema is more than its fields."""
    import inspect

    decorators = cls.__pydantic_decorators__
    if (decorators.validators or decorators.root_validators or decorators.model_validators
            or decorators.field_serializers or decorators.model_serializers
            or decorators.computed_fields or cls.__pydantic_custom_init__
            or cls.__pydantic_generic_metadata__["origin"] is not None):
        return None
    out: dict[str, list[Callable[[Any], Any]]] = {}
    for decorator in decorators.field_validators.values():
        info, func = decorator.info, decorator.func
        if info.mode != "before" or decorator.shim is not None or info.check_fields is not None \
                or not inspect.isfunction(func):
            return None
        params = list(inspect.signature(func).parameters.values())
        if len(params) != 1 or params[0].kind not in (params[0].POSITIONAL_ONLY,
                                                      params[0].POSITIONAL_OR_KEYWORD):
            return None
        for name in info.fields:
            out.setdefault(name, []).append(func)
    return out


# ---------------------------------------------------------------- standard library


def loop_busy(loop: Any) -> bool:
    """Callbacks are ready to run on the asyncio event loop (its list is not public)."""
    return bool(getattr(loop, "_ready", None))


def run_exit_functions() -> None:
    """Run the functions registered with ``atexit`` now: a child forked from a warm
    process leaves with ``os._exit``, never through the interpreter's own ending, and
    still owes them (their runner is not public)."""
    import atexit

    atexit._run_exitfuncs()


def pool_processes(pool: Any) -> list[Any]:
    """The worker processes of a ``ProcessPoolExecutor`` (to end them: shutting the
    pool down waits for a task under way)."""
    return list((getattr(pool, "_processes", None) or {}).values())


# ---------------------------------------------------------------- Rich

style_ansi: Callable[[Any], str | None] = attrgetter("_ansi")
"""A Rich style's SGR codes if worked out already (None until then)."""
console_color_system: Callable[[Any], Any] = attrgetter("_color_system")
"""A console's colour system (a ``ColorSystem``, None when it shows no colour)."""
group_renderables: Callable[[Any], Any] = attrgetter("_renderables")
"""What a Rich ``Group`` was made of, as given (``renderables`` copies them to a list)."""


def _rich_names() -> dict[str, Any]:
    from rich.cells import _is_single_cell_widths

    return {"is_single_cell_widths": _is_single_cell_widths}


# ---------------------------------------------------------------- Textual: reading


def layout_pending(widget: Any) -> bool:
    """A layout of the widget is asked for and has not happened yet."""
    return bool(widget._layout_required)


def drop_layout(widget: Any) -> None:
    """Forget the widget's request for a layout (it would change nothing)."""
    widget._layout_required = False


def log_size_known(log: Any) -> bool:
    """A ``RichLog`` has been told its size (it holds written lines back until then)."""
    return bool(getattr(log, "_size_known", True))


def forget_drawn_lines(log: Any) -> None:
    """Drop a ``RichLog``'s drawings of its lines (after lines were cut from it)."""
    log._line_cache.clear()


def update_scroll_bars(widget: Any, virtual_size: Any) -> None:
    """Bring a widget's scroll bars up to date with its scrollable size, without a layout."""
    widget._scroll_update(virtual_size)


def widget_visual(widget: Any) -> Any:
    """What the widget draws, as Textual lays it out (its ``render()``, styled)."""
    return widget._render()


def app_loop(app: Any) -> Any:
    """The event loop a Textual app runs on: None before it runs, and again once ``run``
    has ended it."""
    return app._loop


def screen_callbacks_due(screen: Any) -> bool:
    """Callbacks asked for after the screen's next refresh have not run yet."""
    return bool(getattr(screen, "_callbacks", None))


def _textual_names() -> dict[str, Any]:
    from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate

    class TextUpdate(CompositorUpdate):
        """A frame written as the given text (the cells it changes on the terminal)."""

        def __init__(self, text: str) -> None:
            self.text = text

        def render_segments(self, console: Any) -> str:
            return self.text

    return {"ChopsUpdate": ChopsUpdate, "CompositorUpdate": CompositorUpdate,
            "LayoutUpdate": LayoutUpdate, "TextUpdate": TextUpdate}


_LAZY = {"is_single_cell_widths": _rich_names, "ChopsUpdate": _textual_names,
         "CompositorUpdate": _textual_names, "LayoutUpdate": _textual_names,
         "TextUpdate": _textual_names}


def __getattr__(name: str) -> Any:
    # The Rich and Textual names, loaded when first asked for (see the module's doc).
    maker = _LAZY.get(name)
    if maker is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals().update(maker())
    return globals()[name]


# ---------------------------------------------------------------- Textual: mixins


class SizedInLayout(_Upstream):
    """Before a Widget: ``resized_in_layout`` is called as the layout gives the widget
    a new size, before the frame is drawn (a resize event comes a frame later)."""

    def resized_in_layout(self) -> None:
        pass

    def _size_updated(self, size: Any, virtual_size: Any, container_size: Any,
                      layout: bool = True) -> bool:
        resized: bool = super()._size_updated(size, virtual_size, container_size, layout)
        if resized:
            self.resized_in_layout()
        return resized


class FrameFilter(_Upstream):
    """Before the App: ``frame_text(update)`` sees each frame Textual is about to write
    to a real terminal (not inline, not headless, not within a batch of updates) and
    gives the text to write instead. Empty text with the cursor where it was writes
    nothing at all."""

    def frame_text(self, update: Any) -> str | None:
        """The text to write for ``update``; None writes the update as Textual would."""
        return None

    def frame_written(self) -> None:
        """Called once a frame that changes the terminal is handed to it."""

    def _display(self, screen: Any, renderable: Any) -> None:
        names = globals()
        if "TextUpdate" not in names:
            names.update(_textual_names())
        driver = self._driver
        if (isinstance(renderable, (names["ChopsUpdate"], names["LayoutUpdate"]))
                and driver is not None and not driver.is_inline and self._running
                and not self._closed and not self.is_headless and not self._batch_count):
            text = self.frame_text(renderable)
            if text is not None:
                if not text and (screen.outer_size.clamp_offset(self.cursor_position)
                                 == self._previous_cursor_position):
                    return
                renderable = names["TextUpdate"](text)
                super()._display(screen, renderable)
                self.frame_written()
                return
        super()._display(screen, renderable)


class SkipsDefaultCSS(_Upstream):
    """Before a widget class: its bases' default CSS named in ``SKIPPED_DEFAULT_CSS``
    (as ``"Button.DEFAULT_CSS"``) is left out of the app's stylesheet."""

    SKIPPED_DEFAULT_CSS: tuple[str, ...] = ()

    def _get_default_css(self) -> list[tuple[tuple[str, str], str, int, str]]:
        return [source for source in super()._get_default_css()
                if source[0][1] not in self.SKIPPED_DEFAULT_CSS]


class ScreenResumeHook(_Upstream):
    """Before a Screen: ``before_screen_resume(event)`` runs before Textual's own handler
    of ``ScreenResume`` (which restyles the whole screen unless told not to)."""

    def before_screen_resume(self, event: Any) -> None:
        pass

    def _on_screen_resume(self, event: Any) -> None:
        self.before_screen_resume(event)


class RegisteredHook(_Upstream):
    """Before a widget class: ``registered(app)`` runs as the widget is registered with
    the app, before its styles are first worked out (so CSS added there applies to it)."""

    def registered(self, app: Any) -> None:
        pass

    def _post_register(self, app: Any) -> None:
        super()._post_register(app)
        self.registered(app)


def node_bindings(node: Any) -> Any:
    """The ``BindingsMap`` a DOM node's keys are looked up in (its class's BINDINGS)."""
    return node._bindings


def set_node_bindings(node: Any, bindings: Any) -> None:
    """Give one node (a screen) bindings of its own, e.g. a game's one-key choices."""
    node._bindings = bindings


class ChoiceListParts(_Upstream):
    """Before an OptionList: the list's side of ``settle_layouts`` (see
    app/layout_once.py for why). Its drawing never asks for a layout a scroll bar does
    not need, and ``replace_options`` lays the screen out again only when the list's
    height changes."""

    _drawn_width = -1  # the width the options' drawings in the cache are for
    _bars_due = False  # the scroll bars are to be decided once the list is sized

    def _on_resize(self, event: Any) -> None:
        # A list only taller or shorter keeps its options' drawings (they depend on
        # the width alone); the option list's own handler would drop them and paint
        # the list again a frame later.
        event.prevent_default()
        if event.size.width != self._drawn_width:
            self._drawn_width = event.size.width
            self._clear_caches()

    def _refresh_scrollbars(self) -> None:
        if self._layout_required:
            self._bars_due = True  # the coming layout sizes the list, then decides them
            return
        super()._refresh_scrollbars()

    def _size_updated(self, size: Any, virtual_size: Any, container_size: Any,
                      layout: bool = True) -> bool:
        resized: bool = super()._size_updated(size, virtual_size, container_size, layout)
        if self._bars_due:
            self._bars_due = False
            super()._refresh_scrollbars()
        return resized

    def _update_lines(self) -> None:
        wanted = self._layout_required
        super()._update_lines()
        if not wanted:
            # Counted while being drawn, after a layout: the list's size is settled, and
            # a new scrollable size by itself needs no other layout. A scroll bar that
            # comes or goes does (it narrows the list), and asks for it.
            self._layout_required = False
            if self._bars_due:
                self._bars_due = False
                super()._refresh_scrollbars()

    def options_replaced(self, asked: bool, before: int | None, height: int,
                         box_height: Callable[[int], int | None]) -> None:
        """After the options were replaced: drop the layout they asked for when the
        list keeps its height (``before``, the height its old options wanted, is
        ``height``, and so is what the new ones want); ``asked``: a layout was wanted
        before."""
        if asked or not self._layout_required or before is None or before != height:
            return
        if not self.scrollable_content_region or box_height(
                self.virtual_size.height) != height:
            return
        self._layout_required = False  # the layout would change nothing
        if self._bars_due:  # the list keeps its size: its bars are decided now
            self._bars_due = False
            super()._refresh_scrollbars()


# ---------------------------------------------------------------- Textual: patches

SETTLE_LAYOUTS = 2  # layouts at most after the first, for scroll bars that came or went
_layout: dict[str, Any] = {"installed": False, "laying_out": False}
_bars_changed: set[Any] = set()
_repainted: set[Any] = set()  # widgets asked to paint again, until the next layout
_painted_mounted: weakref.WeakSet[Any] = weakref.WeakSet()  # scroll bars repainted once mounted


def _nothing() -> None:
    pass


def _repaint_until_mounted(bar: Any) -> None:
    if bar not in _painted_mounted:
        bar.refresh()
        if bar.is_mounted:
            _painted_mounted.add(bar)


def settle_layouts() -> None:
    """Install, for every widget and screen, the layout changes described in
    app/layout_once.py (idempotent)."""
    if _layout["installed"]:
        return
    _layout["installed"] = True
    from textual.screen import Screen
    from textual.widget import Widget

    size_updated = Widget._size_updated

    def _size_updated(self: Any, size: Any, virtual_size: Any, container_size: Any,
                      layout: bool = True) -> bool:
        return size_updated(self, size, virtual_size, container_size, layout=False)

    Widget._size_updated = _size_updated  # type: ignore[method-assign]

    refresh_scrollbars = Widget._refresh_scrollbars

    def _refresh_scrollbars(self: Any) -> None:
        before = self.show_vertical_scrollbar, self.show_horizontal_scrollbar
        refresh_scrollbars(self)
        if _layout["laying_out"] and before != (self.show_vertical_scrollbar,
                                                self.show_horizontal_scrollbar):
            _bars_changed.add(self)

    Widget._refresh_scrollbars = _refresh_scrollbars  # type: ignore[method-assign]

    widget_refresh = Widget.refresh

    def refresh(self: Any, *regions: Any, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Any:
        if repaint:
            if len(_repainted) > 4096:
                _repainted.clear()
            _repainted.add(self)
        return widget_refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)

    Widget.refresh = refresh  # type: ignore[method-assign]

    refresh_layout = Screen._refresh_layout

    def _refresh_layout(self: Any, size: Any = None, scroll: bool = False) -> None:
        if self.app._batch_count or not self.is_current or _layout["laying_out"]:
            refresh_layout(self, size, scroll)
            return
        # The frame is drawn once the layout has settled: a scroll bar that came or
        # went as widgets were told their sizes is laid out at once, not a frame later.
        _bars_changed.clear()
        _layout["laying_out"] = True
        self._compositor_refresh = _nothing
        try:
            refresh_layout(self, size, scroll)
            for _ in range(SETTLE_LAYOUTS):
                if not _bars_changed:
                    break
                for widget in _bars_changed:
                    widget._layout_required = False  # laid out here, not at the next idle
                    for ancestor in widget.ancestors:
                        if not isinstance(ancestor, Widget):
                            break
                        ancestor._clear_arrangement_cache()
                        if not ancestor.styles.auto_dimensions:
                            break
                _bars_changed.clear()
                refresh_layout(self, size, False)
        finally:
            _layout["laying_out"] = False
            _bars_changed.clear()
            del self._compositor_refresh
        # Widgets painted again since their screen last heard of it (the footer whose
        # keys changed as the action was taken) are in this frame too, not the next.
        visible = self._compositor.visible_widgets
        pending = {widget for widget in _repainted if widget in visible}
        _repainted.clear()
        if pending:
            self._compositor.update_widgets(pending)
        self._compositor_refresh()

    Screen._refresh_layout = _refresh_layout  # type: ignore[method-assign]

    def _scroll_update(self: Any, virtual_size: Any) -> None:
        # As Textual's, less its repaint of both scroll bars whenever the widget's size
        # changes: a bar is painted again when its window or position changes (they are
        # reactive) or it is resized, and is otherwise drawn the same. (A board whose
        # height follows the panels beside it drew its horizontal bar again every action.)
        # Until a bar has been repainted here once mounted, it still is every time: what
        # changed before it was mounted did not mark its drawing out of date.
        self._refresh_scrollbars()
        width, height = self.container_size
        if self.show_vertical_scrollbar and self.styles.scrollbar_size_vertical:
            bar = self.vertical_scrollbar
            bar.window_virtual_size = virtual_size.height
            bar.window_size = height - self.scrollbar_size_horizontal
            _repaint_until_mounted(bar)
        if self.show_horizontal_scrollbar and self.styles.scrollbar_size_horizontal:
            bar = self.horizontal_scrollbar
            bar.window_virtual_size = virtual_size.width
            bar.window_size = width - self.scrollbar_size_vertical
            _repaint_until_mounted(bar)
        self.scroll_x = self.validate_scroll_x(self.scroll_x)
        self.scroll_y = self.validate_scroll_y(self.scroll_y)

    Widget._scroll_update = _scroll_update  # type: ignore[method-assign]


def _variables_key(stylesheet: Any) -> tuple[tuple[str, str], ...]:
    """The theme's variables, as part of a key (worked out again only when they change)."""
    variables = stylesheet._variables
    memo = stylesheet.__dict__.get("_railgames_variables")
    if memo is not None and memo[0] is variables:
        return memo[1]  # type: ignore[no-any-return]
    key = tuple(sorted((str(k), str(v)) for k, v in variables.items()))
    stylesheet.__dict__["_railgames_variables"] = (variables, key)
    return key


_css: dict[str, Any] = {"installed": False}


def cache_parsed_css(lookup: Callable[[tuple[Any, ...]], list[Any] | None],
                     keep: Callable[[tuple[Any, ...], Any], None]) -> None:
    """Have every stylesheet ask ``lookup(key)`` for the rules CSS parses into before
    parsing it, and hand what it parses to ``keep(key, rules)`` (see app/css_cache.py).
    The key: the CSS, where it was read from, whether it is default rules, its tie
    breaker, its scope and the theme's variables. Textual's own cache of a stylesheet
    comes first. Installed once; later calls change nothing."""
    if _css["installed"]:
        return
    _css["installed"] = True
    from textual.css.stylesheet import Stylesheet

    parse = Stylesheet._parse_rules

    def _parse_rules(self: Any, css: str, read_from: Any, is_default_rules: bool = False,
                     tie_breaker: int = 0, scope: str = "") -> Any:
        own_key = (css, read_from, is_default_rules, tie_breaker, scope)
        if own_key in self._parse_cache:  # Textual's own cache, as without ours
            return parse(self, css, read_from, is_default_rules, tie_breaker, scope)
        key = (*own_key, _variables_key(self))
        rules = lookup(key)
        if rules is not None:
            self._parse_cache[own_key] = rules
            return rules
        rules = parse(self, css, read_from, is_default_rules, tie_breaker, scope)
        keep(key, rules)
        return rules

    Stylesheet._parse_rules = _parse_rules  # type: ignore[method-assign]


# ---------------------------------------------------------------- asyncssh


def refuse_forwarding(channel: Any, refused: Callable[[str], None]) -> None:
    """Have an asyncssh session channel refuse agent and X11 forwarding (asyncssh does
    by itself, without telling the server) after ``refused("agent forwarding")`` or
    ``refused("X11 forwarding")``."""
    channel.__class__ = _refusing_channel(type(channel))
    channel.refused_forwarding = refused


_REFUSING: dict[type, type] = {}


def _refusing_channel(cls: type) -> type:
    made = _REFUSING.get(cls)
    if made is None:
        class RefusingChannel(cls):  # type: ignore[valid-type,misc]
            """The same channel, with its own handlers of the 'auth-agent-req@openssh.com'
            and 'x11-req' channel requests."""

            refused_forwarding: Callable[[str], None]

            def _process_auth_agent_req_at_openssh_dot_com_request(
                    self, packet: Any) -> bool:  # (a reply now, where asyncssh replies later)
                self.refused_forwarding("agent forwarding")
                return False

            def _process_x11_req_request(self, packet: Any) -> bool:
                self.refused_forwarding("X11 forwarding")
                return False

        made = _REFUSING[cls] = RefusingChannel
    return made
