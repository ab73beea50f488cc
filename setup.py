"""Build hook: compile the modules listed in tuolaji/native.py with mypyc (see its docstring).

Set TUOLAJI_PLAIN=1 to install without compiling (plain Python: same moves, slower bots)."""

import os
import runpy

from setuptools import setup

ext_modules = []
if os.environ.get("TUOLAJI_PLAIN") != "1":
    from mypyc.build import mypycify

    sources = runpy.run_path("tuolaji/native.py")["NATIVE_SOURCES"]
    ext_modules = mypycify(list(sources), opt_level="3")

setup(ext_modules=ext_modules)
