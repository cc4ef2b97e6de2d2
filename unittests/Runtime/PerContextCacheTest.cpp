//===- PerContextCacheTest.cpp - Lazy per-context handle cache ------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The cache behind lazy module loading, with integers as fake contexts and
// strings as the loaded handles.
//
//===----------------------------------------------------------------------===//

#include "Core/RuntimeInternal.h"

#include "gtest/gtest.h"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

using sdfgrt::PerContextCache;

namespace {

struct CountingLoader {
  int loads = 0;
  bool fail = false;

  auto operator()(int context) {
    return [this, context](std::string &handle) {
      ++loads;
      handle = "module@" + std::to_string(context);
      return !fail;
    };
  }
};

TEST(PerContextCacheTest, LoadsOncePerContext) {
  PerContextCache<int, std::string> cache;
  CountingLoader loader;
  std::string handle;
  ASSERT_TRUE(cache.get(1, handle, loader(1)));
  EXPECT_EQ(handle, "module@1");
  ASSERT_TRUE(cache.get(1, handle, loader(1)));
  EXPECT_EQ(loader.loads, 1);

  ASSERT_TRUE(cache.get(2, handle, loader(2)));
  EXPECT_EQ(handle, "module@2");
  EXPECT_EQ(loader.loads, 2);

  ASSERT_TRUE(cache.get(1, handle, loader(1)));
  EXPECT_EQ(handle, "module@1");
  EXPECT_EQ(loader.loads, 2);
}

TEST(PerContextCacheTest, FailedLoadIsRetried) {
  PerContextCache<int, std::string> cache;
  CountingLoader loader;
  std::string handle;
  loader.fail = true;
  EXPECT_FALSE(cache.get(1, handle, loader(1)));
  EXPECT_TRUE(cache.empty());
  loader.fail = false;
  EXPECT_TRUE(cache.get(1, handle, loader(1)));
  EXPECT_EQ(loader.loads, 2);
  EXPECT_FALSE(cache.empty());
}

TEST(PerContextCacheTest, ManyContextsOverflowTheInlineEntries) {
  PerContextCache<int, std::string> cache;
  CountingLoader loader;
  std::string handle;
  for (int round = 0; round < 2; ++round) {
    for (int context = 0; context < 20; ++context) {
      ASSERT_TRUE(cache.get(context, handle, loader(context)));
      EXPECT_EQ(handle, "module@" + std::to_string(context));
    }
  }
  EXPECT_EQ(loader.loads, 20);
  int visited = 0;
  cache.forEach([&](int context, const std::string &handle) {
    EXPECT_EQ(handle, "module@" + std::to_string(context));
    ++visited;
  });
  EXPECT_EQ(visited, 20);
}

TEST(PerContextCacheTest, ConcurrentFirstUsesLoadOnce) {
  PerContextCache<int, std::string> cache;
  std::atomic<int> loads{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      std::string handle;
      cache.get(7, handle, [&](std::string &loaded) {
        ++loads;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        loaded = "module@7";
        return true;
      });
      EXPECT_EQ(handle, "module@7");
    });
  }
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(loads.load(), 1);
}

} // namespace
