"""The optional compiled build (issue #16): mypyc compiles the engine's hot modules to C.

Every other setting is in ``pyproject.toml``; this file only adds the compiled extension
modules, and only when asked and able:

* ``AFFRESCO_COMPILE=1``: compile ``affresco.build.COMPILED_MODULES`` with mypyc (a C compiler
  and ``mypy`` are needed: ``pip install .`` gets ``mypy`` as a build requirement).  Without
  a compiler, or if mypyc fails, the build warns and goes on pure.
* ``AFFRESCO_PURE=1`` (or no ``AFFRESCO_COMPILE``): the pure-Python build (the default, and what
  an editable install should use: compiled modules beside the sources would hide edits).

At run time ``affresco.COMPILED`` tells which build is running; ``AFFRESCO_PURE=1`` forces the
pure modules of a compiled install (docs/compiled.md).
"""
from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import warnings
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent


def _flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def _compiled_modules() -> list[str]:
    """The module list of src/affresco/build.py, read without importing the package."""
    namespace: dict = {}
    text = (HERE / "src" / "affresco" / "build.py").read_text(encoding="utf-8")
    start = text.index("COMPILED_MODULES: tuple")
    end = text.index(")\n", start) + 2
    exec(text[start:end].replace(": tuple[str, ...]", ""), namespace)
    return list(namespace["COMPILED_MODULES"])


def _has_compiler() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(os.environ.get("CC", cc).split()[0]) is not None


MYPY = "mypy==2.4.1"   # the compiler (mypyc ships with mypy); pinned: the same C for everyone


def _wanted() -> bool:
    return _flag("AFFRESCO_COMPILE") and not _flag("AFFRESCO_PURE")


def _ext_modules() -> list:
    if not _wanted() or {"egg_info", "dist_info"} & set(sys.argv):
        return []  # pure, or only the metadata (and the build requirements) are asked for
    if "editable_wheel" in sys.argv:
        warnings.warn("AFFRESCO_COMPILE: an editable install stays pure (compiled modules beside the "
                      "sources would hide your edits); compile with a regular install: "
                      "AFFRESCO_COMPILE=1 pip install .")
        return []
    if not _has_compiler():
        warnings.warn("AFFRESCO_COMPILE: no C compiler found; building the pure-Python affresco")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        warnings.warn("AFFRESCO_COMPILE: mypyc (pip install mypy) is missing; building the pure-Python affresco")
        return []
    paths = [str(Path("src", *name.split(".")).with_suffix(".py")) for name in _compiled_modules()]
    try:
        return mypycify(paths, opt_level=os.environ.get("AFFRESCO_OPT_LEVEL", "3"),
                        target_dir=os.environ.get("AFFRESCO_MYPYC_DIR", "build/mypyc"))
    except (Exception, SystemExit) as exc:  # mypyc reports type errors with SystemExit
        warnings.warn(f"AFFRESCO_COMPILE: mypyc failed ({exc!r}); building the pure-Python affresco")
        return []


def _clean_build_lib() -> None:
    """Remove what an earlier build left in build/lib*: setuptools copies that folder whole into
    the wheel, so a pure build after a compiled one (or a compiled one with another module set)
    would ship stale extension modules."""
    for old in (HERE / "build").glob("lib.*"):
        shutil.rmtree(old, ignore_errors=True)


if __name__ == "__main__":
    os.chdir(HERE)
    if {"bdist_wheel", "editable_wheel", "build", "build_ext"} & set(sys.argv):
        _clean_build_lib()
    # mypy is a build requirement of the compiled build only (setuptools asks pip for it)
    setup(ext_modules=_ext_modules(), setup_requires=[MYPY] if _wanted() else [])
