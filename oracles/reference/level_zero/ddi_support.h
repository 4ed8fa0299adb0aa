// oracles/reference/level_zero/ddi_support.h — the plumbing between the
// Level Zero loader's DDI tables and the reference driver's entry points.
//
// Contract: the generated ddi_tables.cc (gen_ddi_tables.cmake) defines every
// zeGet*ProcAddrTable / zetGet* / zesGet* getter of the installed headers.
// Each getter answers CheckTableRequest, fills every slot with
// UnsupportedEntry<pfn>::Call (returns ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
// never a fake success), then calls FillImplemented(table), which installs
// the implemented entry points of that table. Tables without implemented
// entry points use the no-op template overload.
#pragma once

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

namespace l0spv::zeref {

// The API version this driver implements (the version of the headers it is
// built against; the loader 1.8.12 asks for this same version).
inline constexpr ze_api_version_t kDriverApiVersion = ZE_API_VERSION_CURRENT;

// Version negotiation of every getter: a null table is
// ZE_RESULT_ERROR_INVALID_NULL_POINTER; another major version, or an older
// minor version (whose tables may be shorter than ours, so filling them would
// write past the caller's struct), is ZE_RESULT_ERROR_UNSUPPORTED_VERSION. A
// newer minor version is served: its tables extend ours, and the slots we do
// not know stay as the caller initialised them.
template <typename Table>
ze_result_t CheckTableRequest(ze_api_version_t version, Table* table) {
  if (table == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(kDriverApiVersion) ||
      ZE_MINOR_VERSION(version) < ZE_MINOR_VERSION(kDriverApiVersion))
    return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
  return ZE_RESULT_SUCCESS;
}

// One function per entry-point signature that reports the entry point as
// not implemented by the reference device.
template <typename Pfn>
struct UnsupportedEntry;
template <typename... Args>
struct UnsupportedEntry<ze_result_t(ZE_APICALL*)(Args...)> {
  static ze_result_t ZE_APICALL Call(Args...) {
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  }
};

// Tables with implemented entry points (api_*.cc).
void FillImplemented(ze_global_dditable_t* table);
void FillImplemented(ze_driver_dditable_t* table);
void FillImplemented(ze_device_dditable_t* table);
void FillImplemented(ze_context_dditable_t* table);
void FillImplemented(ze_mem_dditable_t* table);
void FillImplemented(ze_module_dditable_t* table);
void FillImplemented(ze_module_build_log_dditable_t* table);
void FillImplemented(ze_kernel_dditable_t* table);
void FillImplemented(ze_kernel_exp_dditable_t* table);
void FillImplemented(ze_command_queue_dditable_t* table);
void FillImplemented(ze_command_list_dditable_t* table);
void FillImplemented(ze_fence_dditable_t* table);
void FillImplemented(ze_event_pool_dditable_t* table);
void FillImplemented(ze_event_dditable_t* table);
void FillImplemented(ze_image_dditable_t* table);
void FillImplemented(ze_sampler_dditable_t* table);
// The image copies of the command list table (api_image.cc).
void FillImageCopies(ze_command_list_dditable_t* table);

// Every other table: all entry points unsupported.
template <typename Table>
void FillImplemented(Table*) {}

}  // namespace l0spv::zeref
