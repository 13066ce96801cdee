"""Memory the optimized module wastes on entry parameters, as XLA:CPU
compiles it (the reproductions of docs/rules/donation-not-used.md and
docs/rules/entry-parameter-copied.md; shapes only, nothing is allocated):
a donated f32 argument whose only output is bf16 (JAX hands the donation to
XLA because the element counts match; XLA finds no output of its byte size),
a 64 MiB matrix that LAPACK's trsm needs column-major (a wrapped_copy of the
parameter) and a 64 MiB parameter carried through a loop without donation
(copy insertion copies it)."""
from _common import *
from jax.scipy.linalg import solve_triangular

EXPECT = {
    "donation-not-used": "cast_to_bf16 donates f32[256,1024] and returns bf16[256,1024]: "
                         "XLA keeps the donation in buffer_donor",
    "entry-parameter-copied": "solve copies its 64 MiB matrix to column-major for trsm; decay "
                              "carries its undonated 64 MiB parameter through a loop",
}


def cast_to_bf16(params):
    return (params * 0.5).astype(jnp.bfloat16)


def solve(a, b):
    return solve_triangular(a, b, lower=True)


def decay(w):
    return jnp.sum(jax.lax.fori_loop(0, 8, lambda i, w: w * 0.5, w))


def compile_all():
    compile_jit(cast_to_bf16, spec(256, 1024), donate_argnums=(0,))
    compile_jit(solve, spec(4096, 4096), spec(4096, 8))
    compile_jit(decay, spec(4096, 4096))
