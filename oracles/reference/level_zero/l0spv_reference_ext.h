/* oracles/reference/level_zero/l0spv_reference_ext.h — the reference
 * driver's Level Zero extension: what the interpreter reported for each
 * kernel launch (status, undefined-behaviour message, printf output).
 *
 * Contract: the driver lists L0SPV_REFERENCE_EXT_NAME in
 * zeDriverGetExtensionProperties, and zeDriverGetExtensionFunctionAddress(
 * driver, L0SPV_REFERENCE_TAKE_LAUNCH_REPORTS, &fn) returns a function of
 * type l0spv_pfnTakeLaunchReports_t. It takes no handles, so it works
 * whether or not the loader wraps them.
 *
 * fn(&size, NULL) stores in size the bytes (NUL included) of the pending
 * reports as JSON text: {"dropped": N, "reports": [{"kernel", "status",
 * "message", "printf", "instructions"}, ...]} in launch order, "status"
 * being an l0spv ExecutionStatus name (ok, ub-detected, unsupported, timed-out,
 * build-failed). fn(&size, buffer) copies them and forgets them;
 * ZE_RESULT_ERROR_INVALID_SIZE (nothing forgotten, size updated) when size is
 * too small, e.g. because another launch completed in between. At most 1024
 * reports are kept; "dropped" counts the older ones discarded.
 */
#ifndef L0SPV_REFERENCE_EXT_H_
#define L0SPV_REFERENCE_EXT_H_

#include <level_zero/ze_api.h>
#include <stddef.h>

#define L0SPV_REFERENCE_EXT_NAME "ZE_l0spv_reference_device"
#define L0SPV_REFERENCE_EXT_VERSION 1
#define L0SPV_REFERENCE_TAKE_LAUNCH_REPORTS "l0spvReferenceTakeLaunchReports"

typedef ze_result_t(ZE_APICALL* l0spv_pfnTakeLaunchReports_t)(size_t* size,
                                                              char* text);

#endif /* L0SPV_REFERENCE_EXT_H_ */
