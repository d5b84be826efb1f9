"""The docs keep up with the code: every game is listed in the README and explained by `rules`."""

from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parent.parent


def test_readme_lists_every_game():
    readme = (ROOT / "README.md").read_text()
    missing = [name for name in engine.names() if f"`{name}`" not in readme]
    assert not missing, f"README's games table lacks {missing}"


def test_readme_quick_start_is_two_make_commands():
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("##", 1)[0]
    commands = [ln.split("#")[0].strip() for ln in quick.splitlines() if ln.startswith("    ")]
    assert [c for c in commands if c] == ["make demo", "make test"]


def test_ci_runs_the_readme_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()
