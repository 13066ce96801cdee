"""while_loop with a data-dependent condition and in-place updates of its
carry, nested loops, and a loop-carried history buffer."""
from _common import *


def newton_sqrt(x):
    def cond(c):
        y, it, _ = c
        return (jnp.max(jnp.abs(y * y - x)) > 1e-4) & (it < 50)
    def body(c):
        y, it, hist = c
        y = 0.5 * (y + x / y)
        hist = jax.lax.dynamic_update_slice(hist, y[None], (it % 8, 0))
        return y, it + 1, hist
    y, it, hist = jax.lax.while_loop(cond, body, (jnp.ones_like(x), 0, jnp.zeros((8,) + x.shape)))
    return y, it, hist


def nested_while(m):
    def outer_body(c):
        i, acc = c
        def inner_body(d):
            j, a = d
            return j + 1, a.at[i, j].set(a[i, j] + i * j)
        _, acc = jax.lax.while_loop(lambda d: d[0] < acc.shape[1], inner_body, (0, acc))
        return i + 1, acc
    return jax.lax.while_loop(lambda c: c[0] < m.shape[0], outer_body, (0, m))[1]


def compile_all():
    compile_jit(newton_sqrt, spec(16))
    compile_jit(nested_while, spec(4, 4), donate_argnums=(0,))
