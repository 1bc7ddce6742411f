"""The player's language: message catalogues, choosing a language, and display width.

Every text a player reads goes through a gettext catalogue of one *domain* (one area of the
project, so that each area's translators edit their own file): ``game`` (the rules core's
sentences and the card texts), ``terminal`` (tui, render, cli) and ``web`` (the browser
client and the server's messages). The catalogues are ``locale/<lang>/LC_MESSAGES/<domain>.po``
beside this module, written by people; English is the msgid itself, so ``en`` needs no file.

The run time reads the ``.po`` files directly (Babel parses one, compiles it in memory and
hands it to the standard library's ``gettext``): there is no compiled ``.mo`` to forget to
rebuild, a fresh clone shows Japanese as soon as the package is installed, and an edited
``.po`` is seen at the next start. ``make`` still compiles every catalogue once
(``make catalogue-check``), so a broken ``.po`` fails the build.

The rules core stays language-free: its functions that build sentences take a translate
function ``tr`` (``core/tr.py``); an adapter passes ``translator(lang, "game").gettext``.

Terminal layout counts *display columns*, not characters: a Japanese character takes two
columns. ``display_width``, ``pad``, ``truncate`` and ``wrap`` measure with ``wcwidth`` (the
Unicode East Asian Width tables) and give ANSI colour codes no width.
"""

from __future__ import annotations

import argparse
import functools
import gettext
import io
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po
from wcwidth import wcwidth

LANGUAGES: Final = ("en", "ja")
DOMAINS: Final = ("game", "terminal", "web")
LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "locale"
# The functions whose literal first argument is a msgid, per domain (docs/i18n.md).
KEYWORDS: Final = {
    "game": ("tr", "N_"),
    "terminal": ("tr", "N_", "_"),
    "web": ("tr", "N_", "_", "t"),
}
# Colour and cursor codes the terminal writes (CSI sequences): no width on the screen.
_ANSI: Final = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class LanguageError(ValueError):
    """An unknown language or catalogue domain; the message names the known ones."""


def check_language(lang: str) -> str:
    """``lang`` if the project speaks it; a LanguageError naming the choices otherwise."""
    if lang not in LANGUAGES:
        raise LanguageError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return lang


def po_path(lang: str, domain: str) -> Path:
    """Where the catalogue of ``domain`` in ``lang`` lives."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def read_catalogue(lang: str, domain: str) -> Catalog:
    """The parsed ``.po`` of ``domain`` in ``lang`` (Babel's catalogue, for tools and tests);
    a malformed file raises Babel's ``PoFileError`` naming the line."""
    check_language(lang)
    if domain not in DOMAINS:
        raise LanguageError(f"unknown catalogue domain {domain!r}: one of {', '.join(DOMAINS)}")
    with po_path(lang, domain).open("rb") as handle:
        return read_po(handle, locale=lang, domain=domain, abort_invalid=True)


@functools.cache
def translator(lang: str, domain: str) -> gettext.NullTranslations:
    """The translations of ``domain`` in ``lang`` (cached): ``.gettext(msgid)`` gives the text
    in that language. English is the identity. A msgid missing from the catalogue, or whose
    translation is empty or fuzzy, reads in English (the tests forbid both)."""
    check_language(lang)
    if lang == "en":
        if domain not in DOMAINS:
            raise LanguageError(f"unknown catalogue domain {domain!r}: one of "
                                f"{', '.join(DOMAINS)}")
        return gettext.NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, read_catalogue(lang, domain), use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def catalogue(lang: str, domain: str) -> dict[str, str]:
    """Every translated message of ``domain`` in ``lang`` as msgid → text (what a JSON client
    such as the browser loads); empty for English, whose text is the msgid."""
    if check_language(lang) == "en":
        return {}
    out: dict[str, str] = {}
    for message in read_catalogue(lang, domain):
        if message.id and isinstance(message.id, str) and isinstance(message.string, str) \
                and message.string and not message.fuzzy:
            out[message.id] = message.string
    return out


def language_from_env(environ: Mapping[str, str]) -> str:
    """The language the POSIX locale variables ask for: the first set of LC_ALL, LC_MESSAGES
    and LANG (their order of precedence); ``ja…`` (``ja_JP.UTF-8``, ``ja``) is Japanese,
    anything else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return "ja" if value.lower().startswith("ja") else "en"
    return "en"


# --- display width -------------------------------------------------------------------------------

def char_width(char: str) -> int:
    """Columns one character takes: 2 for wide (CJK), 0 for combining or control, else 1."""
    return max(0, wcwidth(char))


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal (East Asian Width; ANSI codes take none)."""
    return sum(char_width(c) for c in _ANSI.sub("", text))


def truncate(text: str, width: int, ellipsis: str = "…") -> str:
    """``text`` cut to at most ``width`` columns, ending in ``ellipsis`` when cut. Plain text
    only (a cut could split an ANSI code)."""
    if display_width(text) <= width:
        return text
    room = width - display_width(ellipsis)
    out, used = [], 0
    for char in text:
        w = char_width(char)
        if used + w > room:
            break
        out.append(char)
        used += w
    return "".join(out) + ellipsis if room >= 0 else ellipsis[:max(0, width)]


def pad(text: str, width: int, align: str = "<") -> str:
    """``text`` filled with spaces to ``width`` columns: ``<`` left-aligned, ``>`` right,
    ``^`` centred. Longer text is returned as it is (cut it first with ``truncate``)."""
    room = max(0, width - display_width(text))
    if align == "<":
        return text + " " * room
    if align == ">":
        return " " * room + text
    if align == "^":
        return " " * (room // 2) + text + " " * (room - room // 2)
    raise ValueError(f"align must be '<', '>' or '^', not {align!r}")


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns: broken at spaces where there are any,
    and inside a run without spaces (Japanese has none) between characters."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if display_width(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
            line = ""
        while display_width(word) > width:  # a run wider than a line: cut between characters
            cut, used = 0, 0
            while cut < len(word) and used + char_width(word[cut]) <= width:
                used += char_width(word[cut])
                cut += 1
            cut = max(cut, 1)
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line or not lines:
        lines.append(line)
    return lines


PLACEHOLDER: Final = re.compile(r"{([a-z_]*)}")


def placeholders(text: str) -> list[str]:
    """The named ``{placeholders}`` of a message, sorted (a translation must keep the set)."""
    return sorted(PLACEHOLDER.findall(text))


def check(lang: str, domain: str) -> list[str]:
    """What is wrong with a catalogue: a translation whose placeholders differ from its
    msgid's (the .po must also parse and compile, or this raises)."""
    problems = []
    catalog = read_catalogue(lang, domain)
    for message in catalog:
        if not message.id or not isinstance(message.id, str):
            continue
        text = message.string if isinstance(message.string, str) else ""
        if text and placeholders(text) != placeholders(message.id):
            problems.append(f"{po_path(lang, domain)}: {message.id!r}: placeholders "
                            f"{placeholders(text)} differ from the msgid's")
    write_mo(io.BytesIO(), catalog, use_fuzzy=False)
    return problems


# --- keeping the catalogues in step with the code (make catalogue) ------------------------------

def extract(domain: str, root: Path) -> Catalog:
    """The msgids the code of ``domain`` marks, as a template catalogue: the files of the
    domain's Babel map (``locale/<domain>.cfg``, paths relative to ``root``, the checkout)
    read with the domain's keywords."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with (LOCALE_DIR / f"{domain}.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)  # type: ignore[no-untyped-call]
    template = Catalog(project="flamecraft", copyright_holder="the flamecraft authors",
                       charset="utf-8")
    keywords = {k: None for k in KEYWORDS[domain]}
    for _file, _line, message, comments, context in extract_from_dir(
            str(root), method_map, options_map, keywords=keywords):
        if isinstance(message, str):
            template.add(message, None, auto_comments=comments, context=context)
    return template


def _ids(catalog: Catalog) -> set[str]:
    return {m.id for m in catalog if m.id and isinstance(m.id, str)}


def _write(path: Path, catalog: Catalog) -> None:
    from babel.messages.pofile import write_po

    with path.open("wb") as handle:
        write_po(handle, catalog, width=100, no_location=True, sort_output=True,
                 ignore_obsolete=True)


def update(domain: str, root: Path) -> list[str]:
    """Brings ``domain``'s template and every translation up to date with the code: new
    msgids added untranslated, unused ones dropped. A file whose msgids are already right is
    not rewritten (no date churn), so updating one domain never touches another's files.
    Returns the files written."""
    template = extract(domain, root)
    written = []
    pot = LOCALE_DIR / f"{domain}.pot"
    current: Catalog | None = None
    if pot.exists():
        with pot.open("rb") as handle:
            current = read_po(handle)
    if current is None or _ids(current) != _ids(template):
        _write(pot, template)
        written.append(str(pot))
    for lang in LANGUAGES[1:]:
        po = po_path(lang, domain)
        if po.exists():
            catalog = read_catalogue(lang, domain)
            if _ids(catalog) == _ids(template):
                continue
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
        else:
            po.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, domain=domain, project="flamecraft",
                              copyright_holder="the flamecraft authors", charset="utf-8")
            catalog.update(template, no_fuzzy_matching=True)
        _write(po, catalog)
        written.append(str(po))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m flamecraft.display.i18n check``: every catalogue parses, compiles and keeps its
    placeholders (exit 1 otherwise; ``make`` runs it). ``update [DOMAIN…]``: the templates
    and translations brought up to date with the code (``make catalogue``). ``json LANG
    DOMAIN``: a catalogue as JSON on stdout."""
    parser = argparse.ArgumentParser(prog="python -m flamecraft.display.i18n",
                                     description="Check the message catalogues, or print one "
                                                 "as JSON.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="parse and compile every catalogue")
    refresh = commands.add_parser("update", help="update the catalogues from the code")
    refresh.add_argument("domains", nargs="*", metavar="DOMAIN",
                         help=f"the domains to update, of {', '.join(DOMAINS)} (default: all)")
    refresh.add_argument("--root", type=Path, default=Path.cwd(),
                         help="the checkout whose code to read (default: here)")
    show = commands.add_parser("json", help="print a catalogue as JSON")
    show.add_argument("lang", choices=LANGUAGES)
    show.add_argument("domain", choices=DOMAINS)
    args = parser.parse_args(argv)
    if args.command == "update":
        unknown = [d for d in args.domains if d not in DOMAINS]
        if unknown:
            parser.error(f"unknown domain {unknown[0]!r}: one of {', '.join(DOMAINS)}")
        for domain in args.domains or DOMAINS:
            for path in update(domain, args.root):
                print(f"wrote {path}")
        return 0
    if args.command == "json":
        json.dump(catalogue(args.lang, args.domain), sys.stdout, ensure_ascii=False, indent=1,
                  sort_keys=True)
        print()
        return 0
    problems = []
    for lang in LANGUAGES[1:]:
        for domain in DOMAINS:
            try:
                problems += check(lang, domain)
            except (OSError, PoFileError) as exc:
                problems.append(f"{po_path(lang, domain)}: {exc}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"{len(DOMAINS) * (len(LANGUAGES) - 1)} catalogues parse and compile")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
