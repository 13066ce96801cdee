"""Training steps with donated parameters: SGD on an MLP (params donated) and
an Adam step whose parameters and optimizer state are all donated, so XLA
aliases every updated buffer to its input (input_output_alias)."""
from _common import *


def init_shapes(sizes):
    return [(spec(a, b), spec(b)) for a, b in zip(sizes[:-1], sizes[1:])]


def mlp(params, x):
    for i, (w, b) in enumerate(params):
        x = x @ w + b
        if i < len(params) - 1:
            x = jax.nn.relu(x)
    return x


def loss(params, x, y):
    return jnp.mean((mlp(params, x) - y) ** 2)


def sgd_step(params, x, y):
    l, g = jax.value_and_grad(loss)(params, x, y)
    return jax.tree.map(lambda p, d: p - 0.01 * d, params, g), l


def adam_step(params, m, v, count, x, y):
    g = jax.grad(loss)(params, x, y)
    count = count + 1
    m = jax.tree.map(lambda a, b: 0.9 * a + 0.1 * b, m, g)
    v = jax.tree.map(lambda a, b: 0.999 * a + 0.001 * b * b, v, g)
    t = count.astype(jnp.float32)
    def upd(p, mm, vv):
        mhat = mm / (1 - 0.9 ** t)
        vhat = vv / (1 - 0.999 ** t)
        return p - 1e-3 * mhat / (jnp.sqrt(vhat) + 1e-8)
    return jax.tree.map(upd, params, m, v), m, v, count


def compile_all():
    params = init_shapes([16, 32, 32, 8])
    x, y = spec(4, 16), spec(4, 8)
    compile_jit(sgd_step, params, x, y, donate_argnums=(0,))
    compile_jit(adam_step, params, params, params, ispec(), x, y, donate_argnums=(0, 1, 2, 3))
