//===- PassesTest.cpp - Running the passes from C++ -----------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What an embedding compiler does: create the passes through the generated
// C++ API, with options, and run them in its own pass manager.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/Passes.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::sdfg;

namespace {
constexpr const char *kProgram = R"mlir(
  sdfg.sdfg @p(%A: memref<4xf32, 1>, %H: memref<4xf32>) target(gpu, streams = 2) {
    gpu.memcpy %A, %H : memref<4xf32, 1>, memref<4xf32>
    gpu.memcpy %H, %A : memref<4xf32>, memref<4xf32, 1> {sdfg.stream_slot = 1 : i64}
    sdfg.return
  }
  sdfg.sdfg @cpu(%H: memref<4xf32>) target(cpu) {
    sdfg.return
  }
)mlir";

class PassesTest : public ::testing::Test {
protected:
  PassesTest() {
    context.loadDialect<SDFGDialect, func::FuncDialect>();
    module = parseSourceString<ModuleOp>(kProgram, &context);
  }

  LogicalResult run(function_ref<void(PassManager &)> addPasses) {
    PassManager pm(&context);
    addPasses(pm);
    return pm.run(*module);
  }

  std::string print() {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return text;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};
} // namespace

TEST_F(PassesTest, ThreadsStreamWithCustomName) {
  ASSERT_TRUE(module);
  AddExternalGpuStreamOptions options;
  options.argumentName = "caller_stream";
  ASSERT_TRUE(succeeded(run([&](PassManager &pm) {
    pm.addPass(createAddExternalGpuStream(options));
  })));

  auto program = cast<SDFGOp>(&module->getBody()->front());
  EXPECT_EQ(program.getNumArguments(), 3u);
  EXPECT_EQ(getExternalStreamArgIndex(program), 2u);
  EXPECT_EQ(program.getArgAttrOfType<StringAttr>(
                    2, SDFGDialect::getExternalStreamAttrName())
                .getValue(),
            "caller_stream");
  InitStreamsOp init = getInitStreamsOp(program);
  ASSERT_TRUE(init);
  EXPECT_EQ(init.getSlots().size(), 2u);

  // Both copies depend on exactly one token: the one of their slot.
  SmallVector<gpu::MemcpyOp> copies;
  program.walk([&](gpu::MemcpyOp copy) { copies.push_back(copy); });
  ASSERT_EQ(copies.size(), 2u);
  for (auto [index, copy] : llvm::enumerate(copies)) {
    ASSERT_EQ(copy.getAsyncDependencies().size(), 1u);
    auto token =
        copy.getAsyncDependencies().front().getDefiningOp<StreamTokenOp>();
    ASSERT_TRUE(token);
    EXPECT_EQ(token.getStream(), init.getSlots()[index]);
  }

  // The CPU program keeps its signature.
  auto cpu = cast<SDFGOp>(program->getNextNode());
  EXPECT_EQ(cpu.getNumArguments(), 1u);
}

TEST_F(PassesTest, SecondRunChangesNothing) {
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(run([](PassManager &pm) {
    pm.addPass(createAddExternalGpuStream());
    pm.addPass(createMakeSyncCall());
  })));
  std::string once = print();
  ASSERT_TRUE(succeeded(run([](PassManager &pm) {
    pm.addPass(createAddExternalGpuStream());
    pm.addPass(createMakeSyncCall());
  })));
  EXPECT_EQ(once, print());
}

TEST_F(PassesTest, SyncCallSynchronizesOneStreamOnce) {
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(run([](PassManager &pm) {
    pm.addPass(createAddExternalGpuStream());
    pm.addPass(createMakeSyncCall());
  })));
  auto program = cast<SDFGOp>(&module->getBody()->front());
  SmallVector<SyncOp> syncs;
  program.walk([&](SyncOp sync) { syncs.push_back(sync); });
  ASSERT_EQ(syncs.size(), 1u);
  EXPECT_EQ(syncs.front().getStreams().size(), 1u);
  EXPECT_TRUE(isa<ReturnOp>(syncs.front()->getNextNode()));
}
