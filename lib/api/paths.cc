#include "hlolint/paths.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <utility>

#include "dump/dump_name.h"
#include "parse/format_sniff.h"
#include "util/strings.h"

namespace fs = std::filesystem;

namespace hlolint::api {
namespace {

constexpr int kMaxDepth = 256;

bool EndsWith(const std::string& name, std::string_view suffix) {
  return name.size() > suffix.size() &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Whether a `.txt` file a scan found starts like HLO (parse/format_sniff.h),
// from one read of its first bytes. A file that cannot be read is kept: the
// lint reports why.
bool TextFileLooksLikeHlo(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return true;
  char head[kSniffBytes];
  ssize_t n;
  do {
    n = ::pread(fd, head, sizeof head, 0);
  } while (n < 0 && errno == EINTR);
  ::close(fd);
  if (n < 0) return true;
  const auto size = static_cast<size_t>(n);
  return ScanLints(SniffTextFormat(std::string_view(head, size), size < sizeof head).format);
}

std::string JoinPath(const std::string& directory, const std::string& name) {
  if (directory.empty()) return name;
  if (directory.back() == '/') return directory + name;
  return StrCat(directory, "/", name);
}

// Directory names that scans skip: build outputs and package caches.
bool IsSkippedDirectoryName(const std::string& name) {
  static const char* const kExact[] = {"build", "_build", "node_modules", "__pycache__",
                                       "CMakeFiles"};
  static const char* const kPrefixes[] = {"build-", "bazel-", "cmake-build-"};
  for (const char* exact : kExact) {
    if (name == exact) return true;
  }
  for (const char* prefix : kPrefixes) {
    if (name.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

class Walker {
 public:
  Walker(std::vector<std::string>* out, std::vector<std::string>* skipped,
         std::vector<PathError>* errors)
      : out_(out), skipped_(skipped), errors_(errors) {}

  void Walk(const std::string& directory, int depth) {
    struct stat st;
    if (::stat(directory.c_str(), &st) != 0) return;
    // A directory reached twice (e.g. through a bind mount) is scanned once.
    if (!visited_.insert({st.st_dev, st.st_ino}).second) return;
    if (depth > kMaxDepth) {
      errors_->push_back({directory, "directories nested too deeply; not scanned"});
      return;
    }
    std::error_code ec;
    fs::directory_iterator it(directory, ec);
    if (ec) {
      errors_->push_back({directory, StrCat("cannot read directory: ", ec.message())});
      return;
    }
    std::vector<std::string> names;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) {
        errors_->push_back({directory, StrCat("cannot read directory: ", ec.message())});
        break;
      }
      names.push_back(it->path().filename().string());
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
      if (name.empty() || name[0] == '.') continue;  // hidden files and folders
      const std::string path = JoinPath(directory, name);
      struct stat link;
      if (::lstat(path.c_str(), &link) != 0) continue;
      struct stat entry;
      if (::stat(path.c_str(), &entry) != 0) continue;  // dangling link: nothing to lint
      if (S_ISDIR(entry.st_mode)) {
        // Links to directories are not followed (as git and ripgrep do): no
        // loops, and no file reached under two names.
        if (!S_ISLNK(link.st_mode) && !IsSkippedDirectoryName(name)) Walk(path, depth + 1);
      } else if (S_ISREG(entry.st_mode) && !IsNonHloDumpArtifact(name)) {
        if (EndsWith(name, ".hlo")) {
          out_->push_back(path);
        } else if (EndsWith(name, ".txt")) {
          // XLA names its HLO text dumps (module_NNNN....txt): those are
          // not read twice. Any other `.txt` is sniffed.
          const bool hlo = ParseDumpFileName(name).has_value() || TextFileLooksLikeHlo(path);
          (hlo ? out_ : skipped_)->push_back(path);
        }
      }
    }
  }

 private:
  std::vector<std::string>* out_;
  std::vector<std::string>* skipped_;
  std::vector<PathError>* errors_;
  std::set<std::pair<dev_t, ino_t>> visited_;
};


}  // namespace

std::vector<std::string> ExpandPaths(const std::vector<std::string>& arguments,
                                     std::vector<PathError>* errors,
                                     std::vector<std::string>* skipped) {
  std::vector<std::string> inputs;
  std::vector<std::string> not_hlo;
  bool stdin_seen = false;
  Walker walker(&inputs, &not_hlo, errors);
  for (const std::string& argument : arguments) {
    if (argument == "-") {
      if (stdin_seen) {
        errors->push_back({"-", "standard input given more than once"});
      } else {
        inputs.push_back("-");
        stdin_seen = true;
      }
      continue;
    }
    struct stat st;
    if (::stat(argument.c_str(), &st) != 0) {
      errors->push_back({argument, std::strerror(errno)});
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      walker.Walk(argument, 0);
    } else {
      inputs.push_back(argument);
    }
  }
  // The same path twice on the command line is linted once.
  std::set<std::string> seen;
  std::vector<std::string> unique;
  for (std::string& input : inputs) {
    if (seen.insert(input).second) unique.push_back(std::move(input));
  }
  if (skipped != nullptr) {
    // A file skipped in one scan but named on the command line is linted.
    for (std::string& path : not_hlo) {
      if (seen.insert(path).second) skipped->push_back(std::move(path));
    }
  }
  return unique;
}

}  // namespace hlolint::api
