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
        # multi_file: one C file per module (one 40 MB file was one gcc process of ~10 minutes on
        # one core of the CI host); ParallelBuildExt compiles them on every core; the same code
        # (bench/README.md, "# CI time", session 22: the engine's instructions per decision alike)
        return mypycify(paths, opt_level=os.environ.get("AFFRESCO_OPT_LEVEL", "3"), multi_file=True,
                        target_dir=os.environ.get("AFFRESCO_MYPYC_DIR", "build/mypyc"))
    except (Exception, SystemExit) as exc:  # mypyc reports type errors with SystemExit
        warnings.warn(f"AFFRESCO_COMPILE: mypyc failed ({exc!r}); building the pure-Python affresco")
        return []


def _jobs() -> int:
    """How many gcc processes at once: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _build_ext():
    """setuptools' build_ext, compiling the C files of one extension module at once: mypyc's
    multi_file mode writes one C file per module into the one shared library, which setuptools
    would compile one after the other (its ``-j`` runs whole extension modules at once)."""
    from concurrent.futures import ThreadPoolExecutor

    from setuptools.command.build_ext import build_ext

    class ParallelBuildExt(build_ext):
        def build_extension(self, ext) -> None:
            compile_one = self.compiler.compile

            def compile_all(sources, *args, **kwargs):
                if len(sources) < 2:
                    return compile_one(sources, *args, **kwargs)
                order = sorted(sources, key=lambda s: -os.path.getsize(s))  # the largest first
                with ThreadPoolExecutor(_jobs()) as pool:
                    done = dict(zip(order, pool.map(lambda s: compile_one([s], *args, **kwargs), order)))
                return [obj for source in sources for obj in done[source]]

            self.compiler.compile = compile_all
            try:
                super().build_extension(ext)
            finally:
                self.compiler.compile = compile_one

    return ParallelBuildExt


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
    ext_modules = _ext_modules()
    setup(ext_modules=ext_modules, setup_requires=[MYPY] if _wanted() else [],
          cmdclass={"build_ext": _build_ext()} if ext_modules else {})
