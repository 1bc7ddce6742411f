"""The rules core: the game's state, its legal decisions, applying one, and what each seat may
see. It knows nothing of terminals, sockets or files; every adapter (the command line, the
terminal and web games, the bots, the research interfaces) imports it, never the reverse.

This package is the set of modules compiled by mypyc when a C compiler is present; the
public API is re-exported by ``flamecraft`` itself.
"""
