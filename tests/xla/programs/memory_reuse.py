"""The counterparts of memory_waste.py that waste nothing: donations XLA
uses (a same-shaped output, which JAX aliases itself; a transposed output of
the same byte size, which JAX hands to XLA as a buffer donor and XLA pairs)
and a donated parameter updated in a loop and returned (no copy)."""
from _common import *


def scale(w):
    return w * 0.5


def transposed(w):
    return w.T * 2


def decay_donated(w):
    return jax.lax.fori_loop(0, 8, lambda i, w: w * 0.5, w)


def compile_all():
    compile_jit(scale, spec(4096, 4096), donate_argnums=(0,))
    compile_jit(transposed, spec(256, 1024), donate_argnums=(0,))
    compile_jit(decay_donated, spec(4096, 4096), donate_argnums=(0,))
