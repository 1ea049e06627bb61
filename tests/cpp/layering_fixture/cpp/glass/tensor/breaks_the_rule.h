#pragma once
// Not compiled: a fixture for scripts/check_cpp_layers.py, which must reject
// both includes below (ctest: cpp_layers_checker_catches_an_include).
#include <vector>

#include "glass/tensor/tensor.h"
#include "glass/nn/model.h"
#include "../../glass/io/bytes.h"
