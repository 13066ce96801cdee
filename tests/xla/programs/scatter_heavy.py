"""Scatter-heavy code: .at[].add/min/max/mul/set with duplicate indices,
segment sums, row scatters, sorted and unique index hints, scatters inside a
loop, and the gradient of a gather (a scatter-add)."""
from _common import *


def scatter_ops(x, idx, upd):
    a = x.at[idx].add(upd)
    b = x.at[idx].min(upd)
    c = x.at[idx].max(upd)
    d = x.at[idx].mul(upd)
    e = x.at[idx].set(upd, unique_indices=True, indices_are_sorted=True)
    return a + b + c + d + e


def segment_sums(data, seg):
    return (jax.ops.segment_sum(data, seg, num_segments=8),
            jax.ops.segment_max(data, seg, num_segments=8))


def scatter_rows(table, rows, vals):
    return table.at[rows, :].add(vals, mode="drop")


def scatter_in_loop(acc, idx, vals):
    def body(i, a):
        return a.at[idx[i]].add(vals[i])
    return jax.lax.fori_loop(0, idx.shape[0], body, acc)


def gather_grad(table, idx):
    return jax.grad(lambda t: jnp.sum(jnp.sin(t[idx])))(table)


def compile_all():
    compile_jit(scatter_ops, spec(32), ispec(16), spec(16))
    compile_jit(segment_sums, spec(64, 4), ispec(64))
    compile_jit(scatter_rows, spec(16, 8), ispec(5), spec(5, 8), donate_argnums=(0,))
    compile_jit(scatter_in_loop, spec(16, 4), ispec(6), spec(6, 4), donate_argnums=(0,))
    compile_jit(gather_grad, spec(32, 4), ispec(10, 3))
