"""fori_loop writing into a buffer in place (x.at[i].set and
dynamic_update_slice of 2-D blocks), rolled and unrolled."""
from _common import *


def fori_set_rows(buf, src):
    def body(i, b):
        return b.at[i].set(src[i] * i)
    return jax.lax.fori_loop(0, buf.shape[0], body, buf)


def fori_blocks(buf):
    def body(i, b):
        blk = jax.lax.dynamic_slice(b, (i * 2, 0), (2, 8))
        return jax.lax.dynamic_update_slice(b, blk + 1.0, (i * 2, 0))
    return jax.lax.fori_loop(0, 4, body, buf, unroll=2)


def fori_dynamic_bound(buf, n):
    def body(i, b):
        return b.at[i % b.shape[0]].add(1.0)
    return jax.lax.fori_loop(0, n, body, buf)


def compile_all():
    compile_jit(fori_set_rows, spec(8, 4), spec(8, 4), donate_argnums=(0,))
    compile_jit(fori_blocks, spec(8, 8), donate_argnums=(0,))
    compile_jit(fori_dynamic_bound, spec(8, 4), ispec(), donate_argnums=(0,))
