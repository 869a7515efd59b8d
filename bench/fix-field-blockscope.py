"""bench/fix-field.sh's "asyncgenerator-adapted" row: AsyncGenerator 0.23.0 reads no file-scoped namespace
(`namespace X;` ends in a NullReferenceException in SyntaxNodeExtensions.HasUsing), so every such file of the app's
copy is given the same namespace as a block (`namespace X { ... }`): the same program, the form AsyncGenerator reads.
Usage: python3 bench/fix-field-blockscope.py APP_FOLDER"""
import pathlib
import re
import sys

for path in pathlib.Path(sys.argv[1]).rglob("*.cs"):
    if {"bin", "obj"} & set(path.parts):
        continue
    text = path.read_text(encoding="utf-8")
    found = re.search(r"^namespace ([\w.]+);[ \t]*$", text, re.M)
    if found:
        text = text[:found.start()] + f"namespace {found.group(1)}\n{{" + text[found.end():].rstrip("\n") + "\n}\n"
        path.write_text(text, encoding="utf-8")
