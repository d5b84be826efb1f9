"""benchmarks/mutation.py's targets still point at real code and real tests.

A target whose function was renamed, or whose test file moved, would make `make mutation` mutate
nothing or test nothing and still print a score: checked here, without running mutmut.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("mutation_tool", ROOT / "benchmarks" / "mutation.py")
tool = importlib.util.module_from_spec(spec)
sys.modules["mutation_tool"] = tool  # dataclasses look their module up
spec.loader.exec_module(tool)


def defined(path: Path) -> set[str]:
    """``function`` and ``Class.method`` names defined in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names |= {f"{node.name}.{f.name}" for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return names


def test_every_target_names_a_module_its_functions_and_its_tests():
    assert set(tool.TARGETS) == {"crossing", "mills", "stabiliser", "wire", "journal", "referee"}
    for name, target in tool.TARGETS.items():
        module = ROOT / target.path
        assert module.is_file(), name
        have = defined(module)
        for f in target.functions:
            assert f in have, f"{name}: {f} is not defined in {target.path}"
        for t in target.tests:
            assert (ROOT / t).is_file(), f"{name}: {t} does not exist"
        for skipped in target.skip:
            file, _, test = skipped.partition("::")
            assert file in target.tests and f"def {test}" in (ROOT / file).read_text(encoding="utf-8")


def test_mutant_names_are_mutmuts():
    assert tool.mangled("arbiter/stabiliser.py", "Stabiliser.feed") == "arbiter.stabiliser.xǁStabiliserǁfeed"
    assert tool.mangled("firmware_bridge/wire.py", "crc16") == "firmware_bridge.wire.x_crc16"


def test_the_config_goes_into_the_scratch_copy_only(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_wire.py").write_text("", encoding="utf-8")
    target = tool.Target("firmware_bridge/wire.py", ("tests/test_wire.py", "tests/missing.py"),
                         skip=("tests/test_wire.py::test_x",))
    tool.write_config(tmp_path, target)
    import tomllib

    cfg = tomllib.loads((tmp_path / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    assert cfg["only_mutate"] == ["firmware_bridge/wire.py"]
    assert cfg["pytest_add_cli_args_test_selection"] == ["tests/test_wire.py"], "missing test files are left out"
    assert "--deselect=tests/test_wire.py::test_x" in cfg["pytest_add_cli_args"]
    assert "[tool.mutmut]" not in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
