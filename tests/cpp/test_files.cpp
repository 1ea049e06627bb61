// The CLI's file helpers (glass/io/safetensors.h): what read_file refuses
// before reading a byte (a directory, a FIFO, a device, a file over the limit),
// write_file leaving no temporary behind on a failure, and check_writable
// refusing an output path before a long job starts. Works in a fresh folder
// under the system's temporary directory. Native only: in wasm the page hands
// the core bytes, never paths (and node's file system there is not the host's).
#ifndef __EMSCRIPTEN__
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "glass/io/safetensors.h"
#include "gradcheck.h"

namespace {

namespace fs = std::filesystem;
using glass::io::check_writable;
using glass::io::read_file;
using glass::io::write_file;

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/glass-files-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir = tmpl;
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  std::vector<std::string> listing() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  fs::path dir;
};

TEST_F(Files, ReadsARegularFile) {
  std::ofstream(path("a.bin"), std::ios::binary) << "hello";
  EXPECT_EQ(read_file(path("a.bin")), (std::vector<uint8_t>{'h', 'e', 'l', 'l', 'o'}));
  std::ofstream(path("empty"), std::ios::binary).flush();
  EXPECT_TRUE(read_file(path("empty")).empty());
}

TEST_F(Files, RefusesWhatIsNotARegularFileBeforeReading) {
  EXPECT_GLASS_ERROR([&] { read_file(path("missing")); }, {"cannot open", "missing", "No such file"});
  EXPECT_GLASS_ERROR([&] { read_file(dir.string()); }, {"is a directory, not a file"});
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_GLASS_ERROR([&] { read_file(path("fifo")); }, {"a FIFO (named pipe), not a file"});  // would block forever
  EXPECT_GLASS_ERROR([&] { read_file("/dev/zero"); }, {"a character device, not a file"});   // would never end
}

TEST_F(Files, RefusesAFileOverTheLimitBeforeReading) {
  {
    std::ofstream f(path("big"), std::ios::binary);
    f << std::string(100, 'x');
  }
  EXPECT_EQ(read_file(path("big"), 100).size(), 100u);
  EXPECT_GLASS_ERROR([&] { read_file(path("big"), 99); }, {"100 bytes, more than the limit of 99"});
  // the default limit, with a sparse file (no disk used)
  ASSERT_EQ(::truncate(path("big").c_str(), static_cast<off_t>(glass::io::kMaxFileBytes + 1)), 0);
  EXPECT_GLASS_ERROR([&] { read_file(path("big")); }, {std::to_string(glass::io::kMaxFileBytes + 1) + " bytes"});
}

TEST_F(Files, WriteFileLeavesNoTemporaryOnFailure) {
  const std::vector<uint8_t> bytes = {1, 2, 3};
  write_file(path("out.bin"), bytes);
  EXPECT_EQ(read_file(path("out.bin")), bytes);
  EXPECT_EQ(listing(), (std::vector<std::string>{"out.bin"}));
  // renaming over a folder fails after the temporary was written: it must go
  fs::create_directory(path("folder"));
  EXPECT_GLASS_ERROR([&] { write_file(path("folder"), bytes); }, {"cannot rename"});
  EXPECT_EQ(listing(), (std::vector<std::string>{"folder", "out.bin"}));
  // a missing folder: nothing is created
  EXPECT_GLASS_ERROR([&] { write_file(path("no/such/out.bin"), bytes); }, {"cannot open"});
  EXPECT_EQ(listing(), (std::vector<std::string>{"folder", "out.bin"}));
}

TEST_F(Files, CheckWritableRefusesBeforeAnyWork) {
  check_writable(path("new.bin"), "--out");  // a new file in a writable folder
  std::ofstream(path("old.bin")) << "keep";
  check_writable(path("old.bin"), "--out");  // an existing file: allowed, and left as it was
  EXPECT_EQ(read_file(path("old.bin")).size(), 4u);
  EXPECT_EQ(listing(), (std::vector<std::string>{"old.bin"}));  // no temporary left
  EXPECT_GLASS_ERROR([&] { check_writable(path("no/such/x.bin"), "--out"); }, {"--out: cannot open", "for writing", "No such file"});
  EXPECT_GLASS_ERROR([&] { check_writable(dir.string(), "--json"); }, {"--json", "is a directory"});
  EXPECT_GLASS_ERROR([&] { check_writable("/dev/null", "--out"); }, {"--out", "a character device"});
  EXPECT_GLASS_ERROR([&] { check_writable(path("old.bin/x"), "--log-json"); }, {"--log-json", "Not a directory"});
  EXPECT_GLASS_ERROR([&] { check_writable("", "--out"); }, {"--out: the path is empty"});
}

}  // namespace

#endif  // __EMSCRIPTEN__
