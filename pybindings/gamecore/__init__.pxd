# Makes pybindings/gamecore a package for Cython, so that `cimport gamecore.X` finds the
# .pxd files here before any installed gamecore on sys.path (Cython prefers a package with
# an __init__ file to a namespace directory, wherever it sits on the search path).
