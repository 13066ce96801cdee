"""cond and switch (conditionals with several branch computations), a cond
inside a loop, and selects."""
from _common import *


def cond_switch(p, i, x):
    a = jax.lax.cond(p, lambda v: jnp.sin(v), lambda v: jnp.cos(v) * 2, x)
    b = jax.lax.switch(i, [lambda v: v + 1, lambda v: v * v, lambda v: -v], x)
    return a, b, jnp.where(x > 0, a, b)


def cond_in_loop(x):
    def body(i, c):
        return jax.lax.cond(i % 2 == 0, lambda v: v.at[i].add(1.0), lambda v: v * 0.5, c)
    return jax.lax.fori_loop(0, 6, body, x)


def compile_all():
    compile_jit(cond_switch, spec(dtype=jnp.bool_), ispec(), spec(8))
    compile_jit(cond_in_loop, spec(8), donate_argnums=(0,))
