"""Sorting: plain and descending sorts, argsort (a two-operand sort), a sort
with two keys, top-k, and a sized unique."""
from _common import *


def sorts(x, keys, vals):
    a = jnp.sort(x, axis=-1)
    b = jnp.argsort(-x, axis=0, stable=True)
    k, v = jax.lax.sort_key_val(keys, vals)
    s = jax.lax.sort((keys, vals, x[0, :16].astype(jnp.int32)), num_keys=2)
    return a, b, k, v, s


def topk(x):
    vals, idx = jax.lax.top_k(x, 5)
    return vals, idx, jnp.take_along_axis(x, idx, axis=-1)


def sized_unique(x):
    return jnp.unique(x, size=8, fill_value=-1)


def compile_all():
    compile_jit(sorts, spec(4, 32), ispec(16), spec(16))
    compile_jit(topk, spec(3, 64))
    compile_jit(sized_unique, ispec(32))
