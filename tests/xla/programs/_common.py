"""Helpers for the JAX programs of the XLA oracle (tests/xla/run_programs.py).

A program module defines `compile_all()`, which jits and compiles its
functions with `compile_jit`, and may define `EXPECT = {rule: reason}`: the
seed-rule or verify-* findings it was written to provoke, and why. Nothing is
executed: `.lower(...).compile()` is enough for XLA to write its dumps.
"""
import numpy as np

import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

COMPILED = []


def spec(*shape, dtype=jnp.float32, sharding=None):
    return jax.ShapeDtypeStruct(shape, dtype, sharding=sharding)


def ispec(*shape, dtype=jnp.int32, sharding=None):
    return jax.ShapeDtypeStruct(shape, dtype, sharding=sharding)


def compile_jit(fn, *args, **jit_kwargs):
    """jax.jit(fn, **jit_kwargs).lower(*args).compile(); XLA names the module jit_<fn name>."""
    compiled = jax.jit(fn, **jit_kwargs).lower(*args).compile()
    COMPILED.append(getattr(fn, "__name__", "fn"))
    return compiled


def mesh_4x2():
    devices = np.array(jax.devices()[:8]).reshape(4, 2)
    return Mesh(devices, ("data", "model"))


def mesh_8():
    return Mesh(np.array(jax.devices()[:8]), ("x",))


__all__ = ["jax", "jnp", "np", "P", "NamedSharding", "spec", "ispec",
           "compile_jit", "mesh_4x2", "mesh_8", "COMPILED"]
