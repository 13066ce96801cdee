"""pytest --hlolint: lint every module XLA compiles while each test runs,
and fail the tests whose modules have findings at or above
--hlolint-fail-on (default error). Registered as a pytest11 entry point, so
installing hlolint is enough; it does nothing without --hlolint.

XLA's dump flags are set when pytest starts, before any test initializes
JAX's backend (hlolint.jax.enable_dumps)."""
import pytest

_SEVERITIES = ("error", "warning", "note")


def pytest_addoption(parser):
    group = parser.getgroup("hlolint", "lint the HLO modules XLA compiles during tests")
    group.addoption("--hlolint", action="store_true", default=False,
                    help="fail tests whose compiled XLA modules have hlolint findings")
    group.addoption("--hlolint-fail-on", default="error", choices=_SEVERITIES,
                    help="the lowest severity that fails a test (default: error)")
    group.addoption("--hlolint-select", default=None,
                    help="rules or categories to check, comma-separated (as --select)")
    group.addoption("--hlolint-ignore", default=None,
                    help="rules or categories not to check, comma-separated (as --ignore)")


def pytest_configure(config):
    if not config.getoption("hlolint"):
        return
    from . import jax as hlolint_jax
    config.stash[_STATE] = _State(hlolint_jax.enable_dumps(), config)


class _State:
    def __init__(self, directory, config):
        self.directory = directory
        self.options = {"fail_on": config.getoption("hlolint_fail_on")}
        if config.getoption("hlolint_select"):
            self.options["select"] = config.getoption("hlolint_select")
        if config.getoption("hlolint_ignore"):
            self.options["ignore"] = config.getoption("hlolint_ignore")
        self.modules_linted = 0


_STATE = pytest.StashKey[_State]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    state = item.config.stash.get(_STATE, None)
    if state is None:
        return (yield)
    from . import LintError, Report
    from .jax import Compilations
    seen = Compilations(state.directory, state.options)
    result = yield
    seen.collect()
    state.modules_linted += len(seen.modules)
    failing = [name for name, report in seen.modules.items() if report.failed]
    if failing:
        report = Report([d for name in failing for d in seen.modules[name]],
                        fail_on=state.options["fail_on"])
        raise LintError(report, what="XLA module" + ("s " if len(failing) > 1 else " ")
                        + ", ".join(failing))
    return result


def pytest_terminal_summary(terminalreporter, config):
    state = config.stash.get(_STATE, None)
    if state is not None:
        terminalreporter.write_line(
            f"hlolint: linted {state.modules_linted} XLA module(s) compiled by the tests "
            f"(dumps in {state.directory})")
