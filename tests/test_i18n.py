"""The message catalogues and the language helpers (flamecraft.display.i18n, docs/i18n.md).

Every msgid the code marks (``tr("…")``, ``N_("…")``; ``_`` and ``t`` in the adapters) must be
in each domain's Japanese catalogue, translated (not empty, not fuzzy), with the same named
placeholders; the catalogue holds no msgid the code no longer uses; every catalogue parses and
compiles. A domain whose .po has no entries at all is skipped (its area is not translated yet).
"""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from babel.messages.pofile import PoFileError

from flamecraft.display import i18n

ROOT = Path(__file__).resolve().parents[1]


def code_msgids(domain: str) -> set[str]:
    """The msgids the code of ``domain`` marks, extracted as ``make catalogue`` does."""
    return {m.id for m in i18n.extract(domain, ROOT) if m.id and isinstance(m.id, str)}


def po_entries(domain: str) -> dict[str, tuple[str, bool]]:
    """The ja catalogue of ``domain``: msgid → (translation, fuzzy)."""
    out = {}
    for message in i18n.read_catalogue("ja", domain):
        if message.id and isinstance(message.id, str):
            text = message.string if isinstance(message.string, str) else ""
            out[message.id] = (text, message.fuzzy)
    return out


def entries_or_skip(domain: str) -> dict[str, tuple[str, bool]]:
    entries = po_entries(domain)
    if not entries:
        pytest.skip(f"the {domain} catalogue has no entries yet (its area is not translated)")
    return entries


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_every_marked_message_is_translated(domain: str) -> None:
    entries = entries_or_skip(domain)
    missing = sorted(code_msgids(domain) - entries.keys())
    assert not missing, f"{domain}: msgids of the code not in the .po (make catalogue): {missing}"
    untranslated = sorted(m for m, (text, fuzzy) in entries.items() if not text or fuzzy)
    assert not untranslated, f"{domain}: empty or fuzzy translations: {untranslated}"


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_no_unused_message(domain: str) -> None:
    entries = entries_or_skip(domain)
    unused = sorted(entries.keys() - code_msgids(domain))
    assert not unused, f"{domain}: msgids no code uses (make catalogue drops them): {unused}"


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_translations_keep_the_placeholders(domain: str) -> None:
    entries = entries_or_skip(domain)
    wrong = [(m, text) for m, (text, _) in entries.items()
             if text and i18n.placeholders(text) != i18n.placeholders(m)]
    assert not wrong, f"{domain}: placeholders differ: {wrong}"


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_catalogues_parse_and_compile(domain: str) -> None:
    assert i18n.check("ja", domain) == []
    assert isinstance(i18n.translator("ja", domain), gettext.GNUTranslations)


def test_a_broken_catalogue_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A malformed .po fails the check `make` runs, naming the line."""
    po = tmp_path / "ja" / "LC_MESSAGES" / "game.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
                  'msgid "gather"\nmsgstr "もの集め\n\nmsgid broken\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    with pytest.raises(PoFileError, match=r"missing msgstr"):
        i18n.check("ja", "game")


def test_a_lost_placeholder_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    po = tmp_path / "ja" / "LC_MESSAGES" / "game.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
                  'msgid "visit {shop}"\nmsgstr "{store}を訪れる"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    problems = i18n.check("ja", "game")
    assert len(problems) == 1 and "visit {shop}" in problems[0]


def test_english_is_the_msgid_itself() -> None:
    tr = i18n.translator("en", "game").gettext
    assert tr("place {dragon} on {shop} slot {slot}") == "place {dragon} on {shop} slot {slot}"
    assert i18n.catalogue("en", "game") == {}


def test_unknown_language_and_domain_are_named() -> None:
    with pytest.raises(i18n.LanguageError, match=r"'fr'.*en, ja"):
        i18n.translator("fr", "game")
    with pytest.raises(i18n.LanguageError, match=r"'cards'.*game, terminal, web"):
        i18n.translator("ja", "cards")
    with pytest.raises(i18n.LanguageError, match="'cards'"):
        i18n.translator("en", "cards")


@pytest.mark.parametrize(("environ", "lang"), [
    ({}, "en"),
    ({"LANG": "ja_JP.UTF-8"}, "ja"),
    ({"LANG": "ja"}, "ja"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "ja_JP.UTF-8", "LC_MESSAGES": "C"}, "en"),  # LC_MESSAGES comes before LANG
    ({"LANG": "C", "LC_MESSAGES": "ja_JP.UTF-8"}, "ja"),
    ({"LC_ALL": "ja_JP.eucJP", "LC_MESSAGES": "en_US"}, "ja"),  # LC_ALL comes first
    ({"LC_ALL": "", "LANG": "ja_JP"}, "ja"),  # an empty variable counts as unset
])
def test_language_from_env(environ: dict[str, str], lang: str) -> None:
    assert i18n.language_from_env(environ) == lang


def test_display_width_counts_columns() -> None:
    assert i18n.display_width("visit Fogo de Char") == 18
    assert i18n.display_width("お店") == 4
    assert i18n.display_width("Fogo de Char を訪れる") == 12 + 1 + 8
    assert i18n.display_width("\x1b[1mお店\x1b[0m") == 4  # colour codes take no column
    assert i18n.display_width("★→…") == 3  # ambiguous-width symbols: one column (wcwidth)


def test_pad_truncate_and_wrap_by_columns() -> None:
    assert i18n.pad("お店", 6) == "お店  "
    assert i18n.pad("お店", 6, ">") == "  お店"
    assert i18n.pad("お店", 7, "^") == " お店  "
    assert i18n.pad("お店を訪れる", 4) == "お店を訪れる"  # too long: unchanged
    assert i18n.truncate("魔法をかける", 7) == "魔法を…"
    assert i18n.display_width(i18n.truncate("魔法をかける", 7)) == 7
    assert i18n.truncate("gather", 6) == "gather"
    lines = i18n.wrap("お店を訪れる visit Fogo de Char 魔法列から魔法を1枚選ぶ", 12)
    assert all(i18n.display_width(line) <= 12 for line in lines)
    assert "".join(lines).replace(" ", "") == "お店を訪れるvisitFogodeChar魔法列から魔法を1枚選ぶ"
    assert lines[:3] == ["お店を訪れる", "visit Fogo", "de Char"]
    with pytest.raises(ValueError, match="align"):
        i18n.pad("x", 3, "=")


def test_update_follows_the_code_and_leaves_settled_files_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`make catalogue`: new msgids arrive untranslated, unused ones go, translations of the
    rest stay; a domain already in step is not rewritten (no date churn between helpers)."""
    locale = tmp_path / "locale"
    locale.mkdir()
    (locale / "game.cfg").write_text("[python: code/**.py]\n", encoding="utf-8")
    code = tmp_path / "code" / "rules.py"
    code.parent.mkdir()
    code.write_text('tr("gather")\ntr("enchant")\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    written = i18n.update("game", tmp_path)
    assert len(written) == 2
    po = i18n.po_path("ja", "game")
    po.write_text(po.read_text(encoding="utf-8").replace(
        'msgid "gather"\nmsgstr ""', 'msgid "gather"\nmsgstr "もの集めをする"'), encoding="utf-8")
    assert i18n.update("game", tmp_path) == []
    code.write_text('tr("gather")\ntr("visit {shop}")\n', encoding="utf-8")
    assert len(i18n.update("game", tmp_path)) == 2
    entries = {m.id: m.string for m in i18n.read_catalogue("ja", "game") if m.id}
    assert entries == {"gather": "もの集めをする", "visit {shop}": ""}
