// Which files the corpus-wide unit tests read. A Release build reads every
// file of the shared corpus; a sanitizer build every HLOLINT_CORPUS_STRIDE-th
// (set by tests/CMakeLists.txt), in path order: there each file costs ten
// times as much, CI's Release stage has already read them all, and the
// sanitized hlolint still lints the whole corpus (.ci/sanitize).
#pragma once

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <vector>

namespace hlolint {

inline constexpr size_t kCorpusStride = HLOLINT_CORPUS_STRIDE;

// The regular files under `root` except MANIFEST.tsv, sorted, every
// `stride`-th of them.
inline std::vector<std::filesystem::path> FilesUnder(const std::filesystem::path& root,
                                                     size_t stride = 1) {
  std::vector<std::filesystem::path> all;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && entry.path().filename() != "MANIFEST.tsv") {
      all.push_back(entry.path());
    }
  }
  std::sort(all.begin(), all.end());
  std::vector<std::filesystem::path> taken;
  for (size_t i = 0; i < all.size(); i += stride) taken.push_back(all[i]);
  return taken;
}

// The corpus files the corpus-wide tests read in this build.
inline std::vector<std::filesystem::path> CorpusSample(const std::filesystem::path& corpus) {
  return FilesUnder(corpus, kCorpusStride);
}

}  // namespace hlolint
