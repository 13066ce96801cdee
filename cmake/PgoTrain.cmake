# The training run of the profile-guided build (cmake/Pgo.cmake), in
# script mode:
#   cmake -DLINT_BENCH=... -DGENERATE_HLO=... -DPROFILE_DIR=... -DWORK_DIR=...
#         -DSTAMP=... -P PgoTrain.cmake
# The instrumented engine (bench/lint_bench: LintSource with every rule, as
# hlolint runs it) lints generated after-optimization, before-optimization
# and model-style modules (our own generator, deterministic by seed), then a
# large one-computation module on two threads. HLO from elsewhere is not
# used.
#
# The mix is measured, not guessed (docs/performance.md, "Profile-guided
# build"): without the two-thread run on the large before-optimization
# module the build gained a fraction as much; adding this repository's test
# inputs (error paths, tiny modules) gained less, not more. Without the
# model style (untyped operands, collectives, dots, small reducers) the
# build gained nothing on the corpus files of that kind. Code the training
# never runs keeps the ordinary optimization.
foreach(var LINT_BENCH GENERATE_HLO PROFILE_DIR WORK_DIR STAMP)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "PgoTrain.cmake: -D${var}=... is required")
  endif()
endforeach()

# Counts of an older binary would not match this one.
file(REMOVE_RECURSE ${PROFILE_DIR} ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "PGO training step failed (${status}): ${ARGN}\n${errors}")
  endif()
endfunction()

run(${GENERATE_HLO} --size 10M --seed 7 --style after -o ${WORK_DIR}/after.hlo)
run(${GENERATE_HLO} --size 2M --seed 8 --style before -o ${WORK_DIR}/before.hlo)
run(${GENERATE_HLO} --size 20M --seed 9 --style before -o ${WORK_DIR}/large.hlo)
run(${GENERATE_HLO} --size 4M --seed 10 --style model -o ${WORK_DIR}/model.hlo)

run(${LINT_BENCH} --runs 2 ${WORK_DIR}/after.hlo ${WORK_DIR}/before.hlo ${WORK_DIR}/model.hlo)
# One module on two threads: the parse from both ends, the rules in parallel.
run(${LINT_BENCH} --runs 1 --threads 2 ${WORK_DIR}/large.hlo)

file(REMOVE_RECURSE ${WORK_DIR})
file(TOUCH ${STAMP})
