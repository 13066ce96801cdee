// Instruction names that more than one instruction of a module uses. XLA
// wants names unique across the module (InstructionVerifier::Preprocess).
#pragma once

#include <vector>

#include "ir/module.h"

namespace hlolint {

struct DuplicateName {
  InstrId repeat;  // an instruction whose name one before it already has
  InstrId first;   // the first instruction with that name
};

// Every instruction that repeats an earlier instruction's name, with the
// first one of that name. "Earlier" and the order of the list are module
// order: computations in id order, instructions in text order within each.
//
// Reads the name hashes the parser kept, not the names: the text of a large
// file has been released, and only names whose hashes agree are compared.
std::vector<DuplicateName> FindDuplicateNames(const Module& module);

}  // namespace hlolint
