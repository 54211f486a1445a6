// executorch_peer: run a .pte with ExecuTorch's own C++ runtime (the executorch wheel's
// libexecutorch + optimized kernels), to time it beside tinypte's pte_run on the same program.
//
//   executorch_peer MODEL.pte IN0.bin [IN1.bin ...] --repeat N
//
// Loads the program, gives the method its planned buffers, copies each input file into its
// input tensor, runs `forward` once to warm up, then N times, and prints one line
//   executorch_peer: ns_per_inference=1234.5 repeat=N
// (the same line format as `pte_run --time`). Errors are one line and exit status 1.
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace {

using executorch::extension::FileDataLoader;
using executorch::runtime::Error;
using executorch::runtime::HierarchicalAllocator;
using executorch::runtime::MemoryAllocator;
using executorch::runtime::MemoryManager;
using executorch::runtime::Method;
using executorch::runtime::Program;
using executorch::runtime::Span;

int fail(const std::string& what) {
  std::fprintf(stderr, "executorch_peer: %s\n", what.c_str());
  return 1;
}

double now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  const char* model = nullptr;
  long repeat = 1;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::strtol(argv[++i], nullptr, 10);
    } else if (model == nullptr) {
      model = argv[i];
    } else {
      inputs.emplace_back(argv[i]);
    }
  }
  if (model == nullptr || repeat < 1) {
    return fail("usage: executorch_peer MODEL.pte IN0.bin ... --repeat N");
  }
  executorch::runtime::runtime_init();
  auto loader = FileDataLoader::from(model);
  if (!loader.ok()) return fail(std::string(model) + ": cannot open");
  auto program = Program::load(&loader.get());
  if (!program.ok()) return fail(std::string(model) + ": not a loadable program");
  auto meta = program->method_meta("forward");
  if (!meta.ok()) return fail(std::string(model) + ": no forward method");

  std::vector<std::unique_ptr<uint8_t[]>> buffers;
  std::vector<Span<uint8_t>> spans;
  for (size_t id = 0; id < meta->num_memory_planned_buffers(); id++) {
    const size_t size = static_cast<size_t>(meta->memory_planned_buffer_size(id).get());
    buffers.emplace_back(new uint8_t[size]);
    spans.emplace_back(buffers.back().get(), size);
  }
  HierarchicalAllocator planned({spans.data(), spans.size()});
  std::vector<uint8_t> method_pool(1 << 20);
  MemoryAllocator method_allocator(static_cast<uint32_t>(method_pool.size()), method_pool.data());
  MemoryManager memory(&method_allocator, &planned);
  auto method = program->load_method("forward", &memory);
  if (!method.ok()) return fail(std::string(model) + ": load_method failed");
  if (inputs.size() != method->inputs_size()) {
    return fail("the program takes " + std::to_string(method->inputs_size()) + " inputs");
  }
  // The inputs' bytes, read once and copied in before every run, as pte_run does: the memory plan
  // may reuse an input's buffer for activations, so a second run would read it overwritten.
  std::vector<std::vector<char>> input_bytes;
  for (size_t i = 0; i < inputs.size(); i++) {
    std::ifstream file(inputs[i], std::ios::binary);
    input_bytes.emplace_back((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  }
  auto copy_inputs = [&]() -> bool {
    for (size_t i = 0; i < input_bytes.size(); i++) {
      // mutable_input() is deprecated in favour of set_input() with a tensor built by the caller;
      // it is the direct way to copy into the planned input, as tinypte's pte_run does.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
      auto tensor = method->mutable_input(i).toTensor();
#pragma GCC diagnostic pop
      if (input_bytes[i].size() != tensor.nbytes()) return false;
      std::memcpy(tensor.mutable_data_ptr(), input_bytes[i].data(), input_bytes[i].size());
    }
    return true;
  };
  if (!copy_inputs()) return fail("an input file has the wrong size for its input");
  if (method->execute() != Error::Ok) return fail("execute failed");
  const double start = now_ns();
  for (long r = 0; r < repeat; r++) {
    if (!copy_inputs() || method->execute() != Error::Ok) return fail("execute failed");
  }
  const double elapsed = now_ns() - start;
  std::printf("executorch_peer: ns_per_inference=%.1f repeat=%ld\n", elapsed / static_cast<double>(repeat), repeat);
  return 0;
}
