"""jax.checkpoint (rematerialisation): a checkpointed block, a policy that
saves dots, and checkpointed layers scanned over stacked weights."""
from _common import *


def block(w, x):
    return jnp.tanh(jnp.sin(x @ w) @ w.T)


def remat_grad(w, x):
    f = jax.checkpoint(block)
    return jax.grad(lambda w: jnp.sum(f(w, f(w, x)) ** 2))(w)


def remat_policy_grad(w, x):
    f = jax.checkpoint(block, policy=jax.checkpoint_policies.dots_saveable)
    return jax.grad(lambda w: jnp.sum(f(w, x) ** 2))(w)


def remat_scan_step(ws, x):
    def layer(h, w):
        return jax.checkpoint(block)(w, h), None
    def loss(ws):
        h, _ = jax.lax.scan(layer, x, ws)
        return jnp.sum(h ** 2)
    return ws - 0.01 * jax.grad(loss)(ws)


def compile_all():
    compile_jit(remat_grad, spec(16, 16), spec(4, 16))
    compile_jit(remat_policy_grad, spec(16, 16), spec(4, 16))
    compile_jit(remat_scan_step, spec(4, 16, 16), spec(4, 16), donate_argnums=(0,))
