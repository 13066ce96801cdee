"""Tied embeddings (the shape of seed 000): one table feeds a gather (token
lookup) and a dot (output logits), so its gradient is a scatter-add plus a
dot into the same, donated, parameter."""
from _common import *

V, D, B, T = 64, 16, 2, 8


def lm_loss(table, proj, tokens, targets):
    h = table[tokens]                      # gather
    h = jnp.tanh(h @ proj)
    logits = h @ table.T                   # dot with the same table
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, targets[..., None], axis=-1))


def tied_train_step(table, proj, tokens, targets):
    g_table, g_proj = jax.grad(lm_loss, argnums=(0, 1))(table, proj, tokens, targets)
    return table - 0.1 * g_table, proj - 0.1 * g_proj


def tied_lookup_only(table, tokens):
    return table.at[tokens].add(1.0)[tokens] @ table.T


def compile_all():
    args = (spec(V, D), spec(D, D), ispec(B, T), ispec(B, T))
    compile_jit(tied_train_step, *args, donate_argnums=(0, 1))
    compile_jit(tied_lookup_only, spec(V, D), ispec(B, T), donate_argnums=(0,))
