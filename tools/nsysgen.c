/*
 * nsysgen: writes synthetic Nsight Systems SQLite exports for nstats' tests and benchmarks.
 *
 *   nsysgen --example -o example.sqlite             small, readable, fixed content
 *   nsysgen --kernels 1000000 --backtrace -o big.sqlite
 *   nsysgen --help                                   every option, from the table below
 *
 * What comes out imitates `nsys export --type=sqlite` of nsys 2024.2.3 (schema 3.11):
 *  - every CREATE TABLE is the exact text of shared/docs/schema-2024.2.3-full.sql, so sqlite_master
 *    looks like a real export's; the ENUM_* tables hold the real contents (shared/docs/enums-2024.2.3.txt);
 *  - a table is created only when its first row is written, like a lazy export (the default of nsys);
 *  - ids follow the real layout: globalTid = VM<<48 | PID<<24 | TID with VM 1 (real exports carry VM 1,
 *    e.g. TARGET_INFO_GPU.vmId = 281474976710656), globalPid = the same with TID 0;
 *  - the CUDA backtrace pattern is the one of saxpy-mpi-cuda_nsys_perlmutter0.sqlite: an extra runtime row
 *    (eventClass 67, unversioned name, callchainId from 0) just around the real call, and CUDA_CALLCHAINS
 *    ids that are callchainId + 1 (the real export has that off-by-one);
 *  - unified-memory migrations are memcpy rows with no API call: correlationId 0, context 0, stream 0,
 *    kinds Unknown, a migrationCause and a virtualAddress, as in real exports.
 *
 * Output is a pure function of the options: the same options give a byte-identical file (integer
 * arithmetic only, no clock, no addresses). Big runs are one transaction with journal and sync off,
 * one prepared INSERT per table, and no allocation per row.
 *
 * Adding an option: add a field to struct config, its default in default_config(), and a row in
 * OPTIONS[]; --help is printed from OPTIONS[], so it cannot drift from what the parser accepts.
 */
#include <errno.h>
#include <signal.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ======================================================================================= schema */

/* tools/nsysgen/schema.sql, which the Makefile turns into a C string at build time. */
extern const char SCHEMA_SQL[];

/* Every ENUM_* table has the same columns; only the comment line differs. */
static const char SQL_ENUM_FORMAT[] =
    "CREATE TABLE %s (\n"
    "    -- %s\n"
    "\n"
    "    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.\n"
    "    name                        TEXT,                                  -- Enum symbol name.\n"
    "    label                       TEXT                                   -- Enum human name.\n"
    ")";

struct enum_row {
    int64_t id;
    const char *name;
    const char *label;
};

struct enum_table {
    const char *table;
    const char *comment;
    const struct enum_row *rows;
    size_t nrows;
};

/* Generated from shared/docs/enums-2024.2.3.txt. */
static const struct enum_row ROWS_CUDA_DEV_MEM_EVENT_OPER[] = {
    {0, "CUDA_DEV_MEM_EVENT_OPR_ALLOCATION", "Allocation"},
    {1, "CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION", "Deallocation"},
};

static const struct enum_row ROWS_CUDA_FUNC_CACHE_CONFIG[] = {
    {0, "CU_FUNC_CACHE_PREFER_NONE", "None"},
    {1, "CU_FUNC_CACHE_PREFER_SHARED", "Shared"},
    {2, "CU_FUNC_CACHE_PREFER_L1", "L1"},
    {3, "CU_FUNC_CACHE_PREFER_EQUAL", "Equal"},
};

static const struct enum_row ROWS_CUDA_KERNEL_LAUNCH_TYPE[] = {
    {0, "CUDA_KERNEL_LAUNCH_TYPE_UNKNOWN", "Unknown"},
    {1, "CUDA_KERNEL_LAUNCH_TYPE_REGULAR", "Regular"},
    {2, "CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE", "Coop Single Device"},
    {3, "CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE", "Coop Multi Device"},
};

static const struct enum_row ROWS_CUDA_MEMCPY_OPER[] = {
    {0, "CUDA_MEMCPY_KIND_UNKNOWN", "Unknown"},
    {1, "CUDA_MEMCPY_KIND_HTOD", "Host-to-Device"},
    {2, "CUDA_MEMCPY_KIND_DTOH", "Device-to-Host"},
    {3, "CUDA_MEMCPY_KIND_HTOA", "Host-to-Array"},
    {4, "CUDA_MEMCPY_KIND_ATOH", "Array-to-Host"},
    {5, "CUDA_MEMCPY_KIND_ATOA", "Array-to-Array"},
    {6, "CUDA_MEMCPY_KIND_ATOD", "Array-to-Device"},
    {7, "CUDA_MEMCPY_KIND_DTOA", "Device-to-Array"},
    {8, "CUDA_MEMCPY_KIND_DTOD", "Device-to-Device"},
    {9, "CUDA_MEMCPY_KIND_HTOH", "Host-to-Host"},
    {10, "CUDA_MEMCPY_KIND_PTOP", "Peer-to-Peer"},
    {11, "CUDA_MEMCPY_KIND_UVM_HTOD", "Unified Host-to-Device"},
    {12, "CUDA_MEMCPY_KIND_UVM_DTOH", "Unified Device-to-Host"},
    {13, "CUDA_MEMCPY_KIND_UVM_DTOD", "Unified Device-to-Device"},
};

static const struct enum_row ROWS_CUDA_MEMPOOL_OPER[] = {
    {0, "CUDA_MEMPOOL_OPERATION_TYPE_INVALID", "Invalid"},
    {1, "CUDA_MEMPOOL_OPERATION_TYPE_CREATED", "Created"},
    {2, "CUDA_MEMPOOL_OPERATION_TYPE_DESTROYED", "Destroyed"},
    {3, "CUDA_MEMPOOL_OPERATION_TYPE_TRIMMED", "Trimmed"},
};

static const struct enum_row ROWS_CUDA_MEMPOOL_TYPE[] = {
    {0, "CUDA_MEMPOOL_TYPE_INVALID", "Invalid"},
    {1, "CUDA_MEMPOOL_TYPE_LOCAL", "Local"},
    {2, "CUDA_MEMPOOL_TYPE_IMPORTED", "Imported"},
};

static const struct enum_row ROWS_CUDA_MEM_KIND[] = {
    {0, "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE", "Pageable"},
    {1, "CUDA_MEMOPR_MEMORY_KIND_PINNED", "Pinned"},
    {2, "CUDA_MEMOPR_MEMORY_KIND_DEVICE", "Device"},
    {3, "CUDA_MEMOPR_MEMORY_KIND_ARRAY", "Array"},
    {4, "CUDA_MEMOPR_MEMORY_KIND_MANAGED", "Managed"},
    {5, "CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC", "Device Static"},
    {6, "CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC", "Managed Static"},
    {7, "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN", "Unknown"},
};

static const struct enum_row ROWS_CUDA_SHARED_MEM_LIMIT_CONFIG[] = {
    {0, "CUDA_SHARED_MEM_LIMIT_DEFAULT", "Default"},
    {1, "CUDA_SHARED_MEM_LIMIT_OPTIN", "Opt in"},
};

static const struct enum_row ROWS_CUDA_UNIF_MEM_ACCESS_TYPE[] = {
    {0, "CUDA_UNIFIED_MEMORY_ACCESS_TYPE_UNKNOWN", "Unknown"},
    {1, "CUDA_UNIFIED_MEMORY_ACCESS_TYPE_READ", "Read"},
    {2, "CUDA_UNIFIED_MEMORY_ACCESS_TYPE_WRITE", "Write"},
    {3, "CUDA_UNIFIED_MEMORY_ACCESS_TYPE_ATOMIC", "Atomic"},
    {4, "CUDA_UNIFIED_MEMORY_ACCESS_TYPE_PREFETCH", "Prefetch"},
};

static const struct enum_row ROWS_CUDA_UNIF_MEM_MIGRATION[] = {
    {0, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_UNKNOWN", "Unknown"},
    {1, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_USER", "User prefetch"},
    {2, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE", "Page fault"},
    {3, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_PREFETCH", "Speculative prefecth"},
    {4, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_EVICTION", "Eviction"},
    {5, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_ACCESS_COUNTERS", "Access counters"},
};

static const struct enum_row ROWS_CUPTI_STREAM_TYPE[] = {
    {0, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_UNKNOWN", "Unknown stream type"},
    {1, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT", "Default stream"},
    {2, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING", "Non-blocking stream"},
    {3, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL", "Null stream"},
};

static const struct enum_row ROWS_CUPTI_SYNC_TYPE[] = {
    {0, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN", "Unknown"},
    {1, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE", "Event sync"},
    {2, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT", "Stream wait sync"},
    {3, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE", "Stream sync"},
    {4, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE", "Context sync"},
};

static const struct enum_row ROWS_D3D12_CMD_LIST_TYPE[] = {
    {0, "D3D12_COMMAND_LIST_TYPE_DIRECT", "Direct"},
    {1, "D3D12_COMMAND_LIST_TYPE_BUNDLE", "Bundle"},
    {2, "D3D12_COMMAND_LIST_TYPE_COMPUTE", "Compute"},
    {3, "D3D12_COMMAND_LIST_TYPE_COPY", "Copy"},
    {4, "D3D12_COMMAND_LIST_TYPE_VIDEO_DECODE", "Video decode"},
    {5, "D3D12_COMMAND_LIST_TYPE_VIDEO_PROCESS", "Video process"},
    {6, "D3D12_COMMAND_LIST_TYPE_VIDEO_ENCODE", "Video encode"},
};

static const struct enum_row ROWS_D3D12_HEAP_FLAGS[] = {
    {0, "D3D12_HEAP_FLAG_NONE", "None"},
    {1, "D3D12_HEAP_FLAG_SHARED", "Shared"},
    {4, "D3D12_HEAP_FLAG_DENY_BUFFERS", "Deny Buffers"},
    {8, "D3D12_HEAP_FLAG_ALLOW_DISPLAY", "Allow Display"},
    {32, "D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER", "Shared Cross Adapter"},
    {64, "D3D12_HEAP_FLAG_DENY_RT_DS_TEXTURES", "Deny RT DS Textures"},
    {128, "D3D12_HEAP_FLAG_DENY_NON_RT_DS_TEXTURES", "Deny non-RT Textures"},
};

static const struct enum_row ROWS_D3D12_HEAP_TYPE[] = {
    {1, "D3D12_HEAP_TYPE_DEFAULT", "Default"},
    {2, "D3D12_HEAP_TYPE_UPLOAD", "Upload"},
    {3, "D3D12_HEAP_TYPE_READBACK", "Readback"},
    {4, "D3D12_HEAP_TYPE_CUSTOM", "Custom"},
};

static const struct enum_row ROWS_D3D12_PAGE_PROPERTY[] = {
    {0, "D3D12_CPU_PAGE_PROPERTY_UNKNOWN", "Unknown"},
    {1, "D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE", "Not available"},
    {2, "D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE", "Write combine"},
    {3, "D3D12_CPU_PAGE_PROPERTY_WRITE_BACK", "Write back"},
};

static const struct enum_row ROWS_DIAGNOSTIC_SEVERITY_LEVEL[] = {
    {0, "UnknownLevel", "Unknown"},
    {1, "Info", "Info"},
    {2, "Warning", "Warning"},
    {3, "Error", "Error"},
    {4, "Verbose", "Verbose"},
};

static const struct enum_row ROWS_DIAGNOSTIC_SOURCE_TYPE[] = {
    {0, "UnknownSource", "Unknown source"},
    {1, "Injection", "Injection"},
    {2, "Daemon", "Daemon"},
    {3, "Analysis", "Analysis"},
};

static const struct enum_row ROWS_DIAGNOSTIC_TIMESTAMP_SOURCE[] = {
    {0, "UnknownTimestamp", "Unknown timestamp"},
    {1, "TargetTimestamp", "Target timestamp"},
    {2, "HostTimestamp", "Host timestamp"},
};

static const struct enum_row ROWS_DXGI_FORMAT[] = {
    {0, "DXGI_FORMAT_UNKNOWN", "Unknown"},
    {1, "DXGI_FORMAT_R32G32B32A32_TYPELESS", "R32G32B32A32 typeless"},
    {2, "DXGI_FORMAT_R32G32B32A32_FLOAT", "R32G32B32A32 float"},
    {3, "DXGI_FORMAT_R32G32B32A32_UINT", "R32G32B32A32 uint"},
    {4, "DXGI_FORMAT_R32G32B32A32_SINT", "R32G32B32A32 int"},
    {5, "DXGI_FORMAT_R32G32B32_TYPELESS", "R32G32B32 typeless"},
    {6, "DXGI_FORMAT_R32G32B32_FLOAT", "R32G32B32 float"},
    {7, "DXGI_FORMAT_R32G32B32_UINT", "R32G32B32 uint"},
    {8, "DXGI_FORMAT_R32G32B32_SINT", "R32G32B32 int"},
    {9, "DXGI_FORMAT_R16G16B16A16_TYPELESS", "R16G16B16A16 typeless"},
    {10, "DXGI_FORMAT_R16G16B16A16_FLOAT", "R16G16B16A16 float"},
    {11, "DXGI_FORMAT_R16G16B16A16_UNORM", "R16G16B16A16 norm-uint"},
    {12, "DXGI_FORMAT_R16G16B16A16_UINT", "R16G16B16A16 uint"},
    {13, "DXGI_FORMAT_R16G16B16A16_SNORM", "R16G16B16A16 norm-int"},
    {14, "DXGI_FORMAT_R16G16B16A16_SINT", "R16G16B16A16 int"},
    {15, "DXGI_FORMAT_R32G32_TYPELESS", "R32G32 typeless"},
    {16, "DXGI_FORMAT_R32G32_FLOAT", "R32G32 float"},
    {17, "DXGI_FORMAT_R32G32_UINT", "R32G32 uint"},
    {18, "DXGI_FORMAT_R32G32_SINT", "R32G32 int"},
    {19, "DXGI_FORMAT_R32G8X24_TYPELESS", "R32G8X24 typeless"},
    {20, "DXGI_FORMAT_D32_FLOAT_S8X24_UINT", "D32 float, S8X24 uint"},
    {21, "DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS", "R32 float, X8X24 typeless"},
    {22, "DXGI_FORMAT_X32_TYPELESS_G8X24_UINT", "X32 typeless, G8X24 uint"},
    {23, "DXGI_FORMAT_R10G10B10A2_TYPELESS", "R10G10B10A2 typeless"},
    {24, "DXGI_FORMAT_R10G10B10A2_UNORM", "R10G10B10A2 norm-uint"},
    {25, "DXGI_FORMAT_R10G10B10A2_UINT", "R10G10B10A2 uint"},
    {26, "DXGI_FORMAT_R11G11B10_FLOAT", "R11G11B10 float"},
    {27, "DXGI_FORMAT_R8G8B8A8_TYPELESS", "R8G8B8A8 typeless"},
    {28, "DXGI_FORMAT_R8G8B8A8_UNORM", "R8G8B8A8 norm-uint"},
    {29, "DXGI_FORMAT_R8G8B8A8_UNORM_SRGB", "R8G8B8A8 norm-uint sRGB"},
    {30, "DXGI_FORMAT_R8G8B8A8_UINT", "R8G8B8A8 uint"},
    {31, "DXGI_FORMAT_R8G8B8A8_SNORM", "R8G8B8A8 ????"},
    {32, "DXGI_FORMAT_R8G8B8A8_SINT", "R8G8B8A8 int"},
    {33, "DXGI_FORMAT_R16G16_TYPELESS", "R16G16 typeless"},
    {34, "DXGI_FORMAT_R16G16_FLOAT", "R16G16 float"},
    {35, "DXGI_FORMAT_R16G16_UNORM", "R16G16 norm-uint"},
    {36, "DXGI_FORMAT_R16G16_UINT", "R16G16 uint"},
    {37, "DXGI_FORMAT_R16G16_SNORM", "R16G16 norm-int"},
    {38, "DXGI_FORMAT_R16G16_SINT", "R16G16 int"},
    {39, "DXGI_FORMAT_R32_TYPELESS", "R32 typeless"},
    {40, "DXGI_FORMAT_D32_FLOAT", "D32 float"},
    {41, "DXGI_FORMAT_R32_FLOAT", "R32 float"},
    {42, "DXGI_FORMAT_R32_UINT", "R32 uint"},
    {43, "DXGI_FORMAT_R32_SINT", "R32 int"},
    {44, "DXGI_FORMAT_R24G8_TYPELESS", "R24G8 typeless"},
    {45, "DXGI_FORMAT_D24_UNORM_S8_UINT", "D24 norm-uint, S8 uint"},
    {46, "DXGI_FORMAT_R24_UNORM_X8_TYPELESS", "R24 norm-uint, X8 typeless"},
    {47, "DXGI_FORMAT_X24_TYPELESS_G8_UINT", "X24 typeless, G8 uint"},
    {48, "DXGI_FORMAT_R8G8_TYPELESS", "R8G8 typeless"},
    {49, "DXGI_FORMAT_R8G8_UNORM", "R8G8 norm-uint"},
    {50, "DXGI_FORMAT_R8G8_UINT", "R8G8 uint"},
    {51, "DXGI_FORMAT_R8G8_SNORM", "R8G8 norm-int"},
    {52, "DXGI_FORMAT_R8G8_SINT", "R8G8 int"},
    {53, "DXGI_FORMAT_R16_TYPELESS", "R16 typeless"},
    {54, "DXGI_FORMAT_R16_FLOAT", "R16 float"},
    {55, "DXGI_FORMAT_D16_UNORM", "D16 norm-uint"},
    {56, "DXGI_FORMAT_R16_UNORM", "R16 norm-uint"},
    {57, "DXGI_FORMAT_R16_UINT", "R16 uint"},
    {58, "DXGI_FORMAT_R16_SNORM", "R16 norm-int"},
    {59, "DXGI_FORMAT_R16_SINT", "R16 int"},
    {60, "DXGI_FORMAT_R8_TYPELESS", "R8 typeless"},
    {61, "DXGI_FORMAT_R8_UNORM", "R8 norm-uint"},
    {62, "DXGI_FORMAT_R8_UINT", "R8 uint"},
    {63, "DXGI_FORMAT_R8_SNORM", "R8 norm-int"},
    {64, "DXGI_FORMAT_R8_SINT", "R8 int"},
    {65, "DXGI_FORMAT_A8_UNORM", "A8 norm-uint"},
    {66, "DXGI_FORMAT_R1_UNORM", "R1 norm-uint"},
    {67, "DXGI_FORMAT_R9G9B9E5_SHAREDEXP", "R9G9B9E5 shared float"},
    {68, "DXGI_FORMAT_R8G8_B8G8_UNORM", "R8G8_B8G8 norm-uint"},
    {69, "DXGI_FORMAT_G8R8_G8B8_UNORM", "G8R8_G8B8 norm-uint"},
    {70, "DXGI_FORMAT_BC1_TYPELESS", "BC-1 typeless"},
    {71, "DXGI_FORMAT_BC1_UNORM", "BC-1 norm-uint"},
    {72, "DXGI_FORMAT_BC1_UNORM_SRGB", "BC-1 norm-uint sRGB"},
    {73, "DXGI_FORMAT_BC2_TYPELESS", "BC-2 typeless"},
    {74, "DXGI_FORMAT_BC2_UNORM", "BC-2 norm-uint"},
    {75, "DXGI_FORMAT_BC2_UNORM_SRGB", "BC-2 norm-uint sRGB"},
    {76, "DXGI_FORMAT_BC3_TYPELESS", "BC-3 typeless"},
    {77, "DXGI_FORMAT_BC3_UNORM", "BC-3 norm-uint"},
    {78, "DXGI_FORMAT_BC3_UNORM_SRGB", "BC-3 norm-uint sRGB"},
    {79, "DXGI_FORMAT_BC4_TYPELESS", "BC-4 typeless"},
    {80, "DXGI_FORMAT_BC4_UNORM", "BC-4 norm-uint"},
    {81, "DXGI_FORMAT_BC4_SNORM", "BC-4 norm-int"},
    {82, "DXGI_FORMAT_BC5_TYPELESS", "BC-5 typeless"},
    {83, "DXGI_FORMAT_BC5_UNORM", "BC-5 norm-uint"},
    {84, "DXGI_FORMAT_BC5_SNORM", "BC-5 norm-int"},
    {85, "DXGI_FORMAT_B5G6R5_UNORM", "B5G6R5 norm-uint"},
    {86, "DXGI_FORMAT_B5G5R5A1_UNORM", "B5G5R5A1 norm-uint"},
    {87, "DXGI_FORMAT_B8G8R8A8_UNORM", "B8G8R8A8 norm-uint"},
    {88, "DXGI_FORMAT_B8G8R8X8_UNORM", "B8G8R8X8 norm-uint"},
    {89, "DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM", "R10G10B10 fixed-pt, A2 norm-uint"},
    {90, "DXGI_FORMAT_B8G8R8A8_TYPELESS", "B8G8R8A8 typeless"},
    {91, "DXGI_FORMAT_B8G8R8A8_UNORM_SRGB", "B8G8R8A8 norm-uint sRGB"},
    {92, "DXGI_FORMAT_B8G8R8X8_TYPELESS", "B8G8R8X8 typeless"},
    {93, "DXGI_FORMAT_B8G8R8X8_UNORM_SRGB", "B8G8R8X8 norm-uint sRGB"},
    {94, "DXGI_FORMAT_BC6H_TYPELESS", "BC-6H typeless"},
    {95, "DXGI_FORMAT_BC6H_UF16", "BC-6H ufloat"},
    {96, "DXGI_FORMAT_BC6H_SF16", "BC-6H float"},
    {97, "DXGI_FORMAT_BC7_TYPELESS", "BC-7 typeless"},
    {98, "DXGI_FORMAT_BC7_UNORM", "BC-7 norm-uint"},
    {99, "DXGI_FORMAT_BC7_UNORM_SRGB", "BC-7 norm-uint sRGB"},
    {100, "DXGI_FORMAT_AYUV", "AYUV444-8"},
    {101, "DXGI_FORMAT_Y410", "Y444-10"},
    {102, "DXGI_FORMAT_Y416", "Y444-16"},
    {103, "DXGI_FORMAT_NV12", "NV420-8"},
    {104, "DXGI_FORMAT_P010", "P420-10"},
    {105, "DXGI_FORMAT_P016", "P420-16"},
    {106, "DXGI_FORMAT_420_OPAQUE", "YUV420-8 opaque"},
    {107, "DXGI_FORMAT_YUY2", "YUY422"},
    {108, "DXGI_FORMAT_Y210", "Y422-10"},
    {109, "DXGI_FORMAT_Y216", "Y422-16"},
    {110, "DXGI_FORMAT_NV11", "NV411-8"},
    {111, "DXGI_FORMAT_AI44", "AI44"},
    {112, "DXGI_FORMAT_IA44", "IA44"},
    {113, "DXGI_FORMAT_P8", "P8"},
    {114, "DXGI_FORMAT_A8P8", "A8P8"},
    {115, "DXGI_FORMAT_B4G4R4A4_UNORM", "B4G4R4A4 norm-uint"},
    {130, "DXGI_FORMAT_P208", "YCbCrA 422 8"},
    {131, "DXGI_FORMAT_V208", "YCbCrA 440 8"},
    {132, "DXGI_FORMAT_V408", "YCbCrA 444 8"},
    {189, "DXGI_FORMAT_SAMPLER_FEEDBACK_MIN_MIP_OPAQUE", "Sampler mip-map opaque"},
    {190, "DXGI_FORMAT_SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE", "Sampler mip-region opaque"},
};

static const struct enum_row ROWS_ETW_MEMORY_TRANSFER_TYPE[] = {
    {0, "UnknownTransfer", "Unknown Transfer"},
    {1, "DeviceToSystem", "Device To System Transfer"},
    {2, "SystemToDevice", "System To Device Transfer"},
    {3, "AgpToDevice", "AGP To Device Transfer"},
    {4, "DeviceToAgp", "Device To AGP Transfer"},
    {5, "EvictToAlternateva", "Evict To Alternate VA Transfer"},
    {6, "RestoreFromAlternateva", "Restore From Alternate VA Transfer"},
    {7, "Discard", "Discard"},
};

static const struct enum_row ROWS_GPU_CTX_SWITCH[] = {
    {-1, "UnknownGpuCtxswTag", "Unknown"},
    {0, "SOF", "SO"},
    {1, "REQ_BY_HOST", "Request by host"},
    {2, "FE_ACK", "Front-end ACK"},
    {3, "FE_ACK_WFI", "Front-end ACK WFI"},
    {4, "FE_ACK_GFXP", "Front-end ACK GFXP"},
    {5, "FE_ACK_CTAP", "Front-end ACK CTAP"},
    {6, "FE_ACK_CILP", "Front-end ACK CILP"},
    {7, "SAVE_END", "Save end"},
    {8, "RESTORE_START", "Restore start"},
    {9, "CONTEXT_START", "Context start"},
    {10, "INVALID_TIMESTAMP", "Invalid timestamp"},
    {11, "ENGINE_RESET", "Engine reset"},
};

static const struct enum_row ROWS_NET_DEVICE_ID[] = {
    {4099, "CntX3", "ConnectX-3"},
    {4103, "CntX3Pro", "ConnectX-3 Pro"},
    {4113, "CntIB", "Connect-IB"},
    {4115, "CntX4", "ConnectX-4"},
    {4117, "CntX4Lx", "ConnectX-4 Lx"},
    {4119, "CntX5", "ConnectX-5"},
    {4121, "CntX5Ex", "ConnectX-5 Ex"},
    {4123, "CntX6", "ConnectX-6"},
    {4125, "CntX6Dx", "ConnectX-6 Dx"},
    {4127, "CntX6Lx", "ConnectX-6 Lx"},
    {4129, "CntX7", "ConnectX-7"},
    {4131, "CntX8", "ConnectX-8"},
    {21108, "InfiniBridge", "InfiniBridge"},
    {23108, "InfiniHost", "InfiniHost"},
    {24204, "InfiniHost3LxHca1", "InfiniHost III Lx HCA 1"},
    {25204, "InfiniHost3LxHca2", "InfiniHost III Lx HCA 2"},
    {25208, "InfiniHost3ExTavor", "InfiniHost III Ex (Tavor compatibility mode)"},
    {25218, "InfiniHost3Ex", "InfiniHost III Ex"},
    {25408, "CntXDual10Gb", "ConnectX Dual Port 10Gb/s"},
    {25418, "CntXDual20Gb", "ConnectX Dual Port 20Gb/s"},
    {25448, "CntXEn10Gb25Gt1", "ConnectX EN 10GigE PCIe 2.0 2.5GT/s"},
    {25458, "CntXEn10Gb25Gt2", "ConnectX EN 10GBASE-T PCIe 2.5 GT/s"},
    {26428, "CntXDual40Gb", "ConnectX Dual Port 40Gb/s"},
    {26438, "CntXVpi", "ConnectX VPI PCIe 2.0 5GT/s"},
    {26448, "CntXEn10Gb50Gt1", "ConnectX EN 10GigE PCIe 2.0 5GT/s"},
    {26458, "CntXEn10Gb50Gt2", "ConnectX EN 10GBASE-T PCIe Gen2 5.0 GT/s"},
    {26468, "CntXEn10Gb50GtVirt", "ConnectX EN 10GigE PCIe 2.0 5GT/s Virtualization+"},
    {26478, "CntXEn40Gb50Gt", "ConnectX EN 40GigE PCIe 2.0 5GT/s"},
    {26488, "CntXVpiVirt", "ConnectX VPI PCIe 2.0 5GT/s - IB DDR / 10GigE Virtualization+"},
    {41680, "BF1Crypto", "BlueField SoC Crypto enabled"},
    {41681, "BF1NoCrypto", "BlueField SoC Crypto disabled"},
    {41682, "BF1CntX5", "BlueField integrated ConnectX-5 network controller"},
    {41683, "BF1MultiVF", "BlueField multicore SoC family VF"},
    {41684, "BF2Crypto", "BlueField-2 SoC Crypto enabled"},
    {41685, "BF2NoCrypto", "BlueField-2 SoC Crypto disabled"},
    {41686, "BF2CntX6Dx", "BlueField-2 integrated ConnectX-6 Dx network controller"},
    {41687, "BF3LxCrypto", "BlueField-3 Lx SoC Crypto enabled"},
    {41688, "BF3LxNoCrypto", "BlueField-3 Lx SoC Crypto disabled"},
    {41689, "BF3LxCntX7Lx", "BlueField-3 Lx integrated ConnectX-7 network controller"},
    {41690, "BF3Crypto", "BlueField-3 SoC Crypto enabled"},
    {41691, "BF3NoCrypto", "BlueField-3 SoC Crypto disabled"},
    {41692, "BF3CntX7", "BlueField-3 integrated ConnectX-7 network controller"},
    {41693, "BF4Crypto", "BlueField-4 SoC Crypto enabled"},
    {41694, "BF4NoCrypto", "BlueField-4 SoC Crypto disabled"},
    {41695, "BF4Int", "BlueField-4 integrated network controller"},
};

static const struct enum_row ROWS_NET_IB_DEVICE_TYPE[] = {
    {1, "Endpoint", "End Point"},
    {2, "IBSwitch", "IB Switch"},
};

static const struct enum_row ROWS_NET_LINK_TYPE[] = {
    {0, "Unknown", "Unknown NIC"},
    {1, "Ethernet", "Ethernet NIC"},
    {2, "InfiniBand", "InfiniBand NIC"},
};

static const struct enum_row ROWS_NET_VENDOR_ID[] = {
    {5555, "NVIDIA", "NVIDIA / Mellanox"},
};

static const struct enum_row ROWS_NSYS_EVENT_CLASS[] = {
    {0, "TRACE_PROCESS_EVENT_CUDA_RUNTIME", "CUDA runtime"},
    {1, "TRACE_PROCESS_EVENT_CUDA_DRIVER", "CUDA driver"},
    {2, "TRACE_PROCESS_EVENT_GL", "GL"},
    {3, "TRACE_PROCESS_EVENT_TSP_OVERHEAD", "TSP overhead"},
    {4, "TRACE_PROCESS_EVENT_GL_DEBUG", "GL debug"},
    {5, "TRACE_PROCESS_EVENT_GL_WORKLOAD", "GL workload"},
    {6, "TRACE_PROCESS_EVENT_NVTX_START", "NVTX start"},
    {7, "TRACE_PROCESS_EVENT_NVTX_FINISH", "NVTX finish"},
    {8, "TRACE_PROCESS_EVENT_GL_START", "GL start"},
    {9, "TRACE_PROCESS_EVENT_GL_FINISH", "GL finish"},
    {10, "TRACE_PROCESS_EVENT_CUDA_START", "CUDA start"},
    {11, "TRACE_PROCESS_EVENT_CUDA_FINISH", "CUDA finish"},
    {12, "TRACE_PROCESS_EVENT_CUDA_INIT_ERROR", "CUDA init error"},
    {13, "TRACE_PROCESS_EVENT_CUDA_EGL_DRIVER", "CUDA EGL driver"},
    {18, "TRACE_PROCESS_EVENT_VSYNC", "Vsync"},
    {26, "TRACE_PROCESS_EVENT_CUDA_API", "CUDA API"},
    {27, "TRACE_PROCESS_EVENT_OS_RUNTIME", "OSRT runtime"},
    {28, "TRACE_PROCESS_EVENT_CUDNN", "cuDNN"},
    {29, "TRACE_PROCESS_EVENT_CUBLAS", "cuBLAS"},
    {31, "TRACE_PROCESS_EVENT_OS_RUNTIME_START", "OSRT start"},
    {32, "TRACE_PROCESS_EVENT_OS_RUNTIME_FINISH", "OSRT finish"},
    {33, "TRACE_PROCESS_EVENT_CUDNN_START", "cuDNN start"},
    {34, "TRACE_PROCESS_EVENT_CUDNN_FINISH", "cuDNN finish"},
    {35, "TRACE_PROCESS_EVENT_CUBLAS_START", "cuBLAS start"},
    {36, "TRACE_PROCESS_EVENT_CUBLAS_FINISH", "cuBLAS finish"},
    {37, "TRACE_PROCESS_EVENT_THREAD_BLOCK", "Thread block"},
    {38, "TRACE_PROCESS_EVENT_NVMEDIA", "NVmedia"},
    {39, "TRACE_PROCESS_EVENT_NVMEDIA_START", "NVmedia start"},
    {40, "TRACE_PROCESS_EVENT_NVMEDIA_FINISH", "NVmedia finish"},
    {41, "TRACE_PROCESS_EVENT_DX12_API", "DX12 API"},
    {42, "TRACE_PROCESS_EVENT_DX12_WORKLOAD", "DX12 workload"},
    {43, "TRACE_PROCESS_EVENT_DX12_START", "DX12 start"},
    {44, "TRACE_PROCESS_EVENT_DX12_FINISH", "DX12 finish"},
    {45, "TRACE_PROCESS_EVENT_OPENACC_START", "OpenACC start"},
    {46, "TRACE_PROCESS_EVENT_OPENACC_FINISH", "OpenACC finish"},
    {47, "TRACE_PROCESS_EVENT_OPENACC_INIT_ERROR", "OpenACC init error"},
    {48, "TRACE_PROCESS_EVENT_OPENACC", "OpenACC"},
    {49, "TRACE_PROCESS_EVENT_CPU_FPS", "CPU FPS"},
    {50, "TRACE_PROCESS_EVENT_GPU_FPS", "GPU FPS"},
    {51, "TRACE_PROCESS_EVENT_GL_MULTI_ERROR", "GL multi-error"},
    {52, "TRACE_PROCESS_EVENT_DX12_DISPLAY", "DX12 display"},
    {53, "TRACE_PROCESS_EVENT_VULKAN_API", "Vulkan API"},
    {54, "TRACE_PROCESS_EVENT_VULKAN_WORKLOAD", "Vulkan workload"},
    {55, "TRACE_PROCESS_EVENT_VULKAN_START", "Vulkan start"},
    {56, "TRACE_PROCESS_EVENT_VULKAN_FINISH", "Vulkan finish"},
    {57, "TRACE_PROCESS_EVENT_SYSTEM_EVENT", "System event"},
    {58, "TRACE_PROCESS_EVENT_GPU_MEMORY", "GPU memory"},
    {59, "TRACE_PROCESS_EVENT_DX12_CREATE_OBJECT", "DX12 create object"},
    {60, "TRACE_PROCESS_EVENT_VULKAN_CREATE_OBJECT", "Vulkan create object"},
    {61, "TRACE_PROCESS_EVENT_CUSTOM_ETW_TRACE", "Custom ETW trace"},
    {62, "TRACE_PROCESS_EVENT_SLI", "SLI"},
    {63, "TRACE_PROCESS_EVENT_SLI_START", "SLI start"},
    {64, "TRACE_PROCESS_EVENT_SLI_FINISH", "SLI finish"},
    {65, "TRACE_PROCESS_EVENT_DX12_DEBUG_API", "DX12 debug API"},
    {66, "TRACE_PROCESS_EVENT_VULKAN_DEBUG_API", "Vulkan debug API"},
    {67, "TRACE_PROCESS_EVENT_CUDABACKTRACE", "CUDA backtrace"},
    {68, "TRACE_PROCESS_EVENT_CUDABACKTRACE_START", "CUDA backtrace start"},
    {69, "TRACE_PROCESS_EVENT_CUDABACKTRACE_FINISH", "CUDA backtrace finish"},
    {70, "TRACE_PROCESS_EVENT_WDDM", "WDDM"},
    {71, "TRACE_PROCESS_EVENT_DX11_API", "DX11 API"},
    {72, "TRACE_PROCESS_EVENT_DX11_START", "DX11 start"},
    {73, "TRACE_PROCESS_EVENT_DX11_FINISH", "DX11 finish"},
    {74, "TRACE_PROCESS_EVENT_DX11_CREATE_OBJECT", "DX11 create object"},
    {75, "TRACE_PROCESS_EVENT_DX11_DEBUG_API", "DX11 debug API"},
    {76, "TRACE_PROCESS_EVENT_DXCOMMON_API", "DX common API"},
    {77, "TRACE_PROCESS_EVENT_CUDA_GRAPH_NODE_CREATION", "CUDA graph node creation"},
    {78, "TRACE_PROCESS_EVENT_OPENMP", "OpenMP"},
    {79, "TRACE_PROCESS_EVENT_OPENMP_START", "OpenMP start"},
    {80, "TRACE_PROCESS_EVENT_OPENMP_FINISH", "OpenMP finish"},
    {81, "TRACE_PROCESS_EVENT_NVAPI", "NV API"},
    {82, "TRACE_PROCESS_EVENT_ETWDXGKRNL", "ETW DXG KRNL"},
    {83, "TRACE_PROCESS_EVENT_NVENC", "NVENC"},
    {84, "TRACE_PROCESS_EVENT_NVENC_START", "NVENC start"},
    {85, "TRACE_PROCESS_EVENT_NVENC_FINISH", "NVENC finish"},
    {86, "TRACE_PROCESS_EVENT_NVDEC", "NVDEC"},
    {87, "TRACE_PROCESS_EVENT_NVDEC_START", "NVDEC start"},
    {88, "TRACE_PROCESS_EVENT_NVDEC_FINISH", "NVDEC finish"},
    {89, "TRACE_PROCESS_EVENT_NVJPEG", "nvJPEG"},
    {90, "TRACE_PROCESS_EVENT_NVJPEG_START", "nvJPEG start"},
    {91, "TRACE_PROCESS_EVENT_NVJPEG_FINISH", "nvJPEG finish"},
    {92, "TRACE_PROCESS_EVENT_DX12_BATCH_WORKLOAD", "DX12 batch workload"},
    {93, "TRACE_PROCESS_EVENT_VULKAN_BATCH_WORKLOAD", "Vulkan batch workload"},
    {94, "TRACE_PROCESS_EVENT_CUDA_GRAPHEXEC_CREATION", "CUDA graph exec creation"},
    {95, "TRACE_PROCESS_EVENT_CUDA_GRAPH_CREATION", "CUDA graph creation"},
    {96, "TRACE_PROCESS_EVENT_CUDA_GRAPH_CLONE", "CUDA graph clone"},
};

static const struct enum_row ROWS_NSYS_EVENT_TYPE[] = {
    {0, "Unknown", "Unknown"},
    {1, "CpuCycles", "CpuCycles"},
    {2, "Instructions", "Instructions"},
    {3, "CacheReferences", "CacheReferences"},
    {4, "L1CacheDataWriteMisses", "L1CacheDataWriteMisses"},
    {5, "L1CacheDataReadMisses", "L1CacheDataReadMisses"},
    {6, "L1CacheInstructionMisses", "L1CacheInstructionMisses"},
    {7, "L2CacheDataWriteMisses", "L2CacheDataWriteMisses"},
    {8, "L2CacheDataReadMisses", "L2CacheDataReadMisses"},
    {9, "L2CacheInstructionMisses", "L2CacheInstructionMisses"},
    {10, "BranchInstructions", "BranchInstructions"},
    {11, "BranchMisses", "BranchMisses"},
    {12, "BusCycles", "BusCycles"},
    {13, "CpuClock", "CpuClock"},
    {14, "TaskClock", "TaskClock"},
    {15, "PageFault", "PageFault"},
    {16, "ContextSwitches", "ContextSwitches"},
    {17, "CpuMigrations", "CpuMigrations"},
    {18, "PageFaultsMin", "PageFaultsMin"},
    {19, "PageFaultsMax", "PageFaultsMax"},
    {20, "AlignmentFaults", "AlignmentFaults"},
    {21, "EmulationFaults", "EmulationFaults"},
    {22, "ThreadState", "ThreadState"},
    {23, "Frames", "Frames"},
    {24, "Annotations", "Annotations"},
    {25, "SchedSwitch", "SchedSwitch"},
    {26, "SchedWakeup", "SchedWakeup"},
    {27, "Command", "Command"},
    {28, "Mmap", "Mmap"},
    {29, "MemUsage", "MemUsage"},
    {30, "Emc", "Emc"},
    {31, "Composite", "Composite"},
    {32, "NvtxEvents", "NvtxEvents"},
    {33, "NvtxCategory", "NvtxCategory"},
    {34, "NvtxMark", "NvtxMark"},
    {35, "NvtxPushRange", "NvtxPushRange"},
    {36, "NvtxPopRange", "NvtxPopRange"},
    {37, "NvtxStartRange", "NvtxStartRange"},
    {38, "NvtxEndRange", "NvtxEndRange"},
    {39, "NvtxThread", "NvtxThread"},
    {40, "PowerRate", "PowerRate"},
    {41, "Sched", "Sched"},
    {42, "CpuCyclesSelf", "CpuCyclesSelf"},
    {43, "CpuCyclesTotal", "CpuCyclesTotal"},
    {44, "CpuCyclesSelfPlus", "CpuCyclesSelfPlus"},
    {45, "Cuda", "Cuda"},
    {46, "CudaDevice", "CudaDevice"},
    {47, "TraceProcess", "TraceProcess"},
    {48, "TraceFunctions", "TraceFunctions"},
    {49, "Diagnostic", "Diagnostic"},
    {50, "GlWorkload", "GlWorkload"},
    {51, "BandwidthUsage", "BandwidthUsage"},
    {52, "KhrDebugMark", "KhrDebugMark"},
    {53, "KhrDebugPushRange", "KhrDebugPushRange"},
    {54, "KhrDebugPopRange", "KhrDebugPopRange"},
    {55, "KhrDebugGpuMark", "KhrDebugGpuMark"},
    {56, "KhrDebugGpuPushRange", "KhrDebugGpuPushRange"},
    {57, "KhrDebugGpuPopRange", "KhrDebugGpuPopRange"},
    {58, "GpuCtxsw", "GpuCtxsw"},
    {59, "NvtxPushPopRange", "NvtxPushPopRange"},
    {60, "NvtxStartEndRange", "NvtxStartEndRange"},
    {61, "ProfTime", "ProfTime"},
    {62, "KhrDebugPushPopRange", "KhrDebugPushPopRange"},
    {63, "KhrDebugGpuPushPopRange", "KhrDebugGpuPushPopRange"},
    {64, "NvtxtCategory", "NvtxtCategory"},
    {65, "NvtxtMark", "NvtxtMark"},
    {66, "NvtxtPushRange", "NvtxtPushRange"},
    {67, "NvtxtPopRange", "NvtxtPopRange"},
    {68, "NvtxtStartRange", "NvtxtStartRange"},
    {69, "NvtxtEndRange", "NvtxtEndRange"},
    {70, "NvtxtPushPopRange", "NvtxtPushPopRange"},
    {71, "NvtxtStartEndRange", "NvtxtStartEndRange"},
    {72, "NvtxtMetaThread", "NvtxtMetaThread"},
    {73, "NvtxtMetaProcess", "NvtxtMetaProcess"},
    {74, "NvtxtMetaFileDisplay", "NvtxtMetaFileDisplay"},
    {75, "NvtxDomainCreate", "NvtxDomainCreate"},
    {76, "NvtxDomainDestroy", "NvtxDomainDestroy"},
    {77, "NvnGpuCmdBuf", "NvnGpuCmdBuf"},
    {78, "TraceVSync", "TraceVSync"},
    {79, "CudaDeviceKernel", "CudaDeviceKernel"},
    {80, "CudaDeviceMemory", "CudaDeviceMemory"},
    {81, "Pmu", "Pmu"},
    {82, "NvnGpuDraw", "NvnGpuDraw"},
    {83, "NvnGpuCompute", "NvnGpuCompute"},
    {84, "NvnGpuDebug", "NvnGpuDebug"},
    {85, "OS runtime libraries", "OS runtime libraries"},
    {86, "CuDNN", "CuDNN"},
    {87, "CuBLAS", "CuBLAS"},
    {88, "NvMedia", "NvMedia"},
    {89, "OpenACC", "OpenACC"},
    {90, "Correlation", "Correlation"},
    {91, "DX12", "DX12"},
    {92, "DX12Workload", "DX12Workload"},
    {93, "PmuRawEvent", "PmuRawEvent"},
    {94, "GraphicsFrame", "GraphicsFrame"},
    {95, "Vulkan", "Vulkan"},
    {96, "VulkanWorkload", "VulkanWorkload"},
    {97, "NvtxNameCudaDevice", "NvtxNameCudaDevice"},
    {98, "NvtxNameCudaContext", "NvtxNameCudaContext"},
    {99, "NvtxNameCudaStream", "NvtxNameCudaStream"},
    {100, "SystemEvent", "SystemEvent"},
    {101, "GpuMemoryEvent", "GpuMemoryEvent"},
    {102, "DX12CreateObject", "DX12CreateObject"},
    {103, "VulkanCreateObject", "VulkanCreateObject"},
    {104, "UnitTraceEvent", "UnitTraceEvent"},
    {105, "CustomETWEvent", "CustomETWEvent"},
    {106, "CudaSyncEvent", "CudaSyncEvent"},
    {107, "SLIEvent", "SLIEvent"},
    {108, "CudaBacktrace", "CudaBacktrace"},
    {109, "WddmEvent", "WddmEvent"},
    {110, "DX11", "DX11"},
    {111, "DX11CreateObject", "DX11CreateObject"},
    {112, "DXGI", "DXGI"},
    {113, "CudaGraphNodeCreation", "CudaGraphNodeCreation"},
    {114, "OpenMP", "OpenMP"},
    {115, "UncorePmuEvent", "UncorePmuEvent"},
    {116, "UncorePmuCarmel", "UncorePmuCarmel"},
    {117, "CudaDeviceMemoryUsage", "CudaDeviceMemoryUsage"},
    {118, "ETWDxgKrnlEvent", "ETWDxgKrnlEvent"},
    {119, "CudaUvmCpuPageFaultEvent", "CudaUvmCpuPageFaultEvent"},
    {120, "CudaUvmGpuPageFaultEvent", "CudaUvmGpuPageFaultEvent"},
    {121, "NICMetricsValuesEvent", "NICMetricsValuesEvent"},
    {122, "NICMetricsListEvent", "NICMetricsListEvent"},
    {123, "InterruptHandler", "InterruptHandler"},
    {124, "NVENC", "NVENC"},
    {125, "NVDEC", "NVDEC"},
    {126, "nvJPEG", "nvJPEG"},
    {127, "CudaEventRecord", "CudaEventRecord"},
    {128, "PerfEventCountEvent", "PerfEventCountEvent"},
    {129, "CudaDeviceMemoryPool", "CudaDeviceMemoryPool"},
    {130, "CudaDeviceGraph", "CudaDeviceGraph"},
    {131, "CudaGraphExecCreation", "CudaGraphExecCreation"},
    {132, "CudaGraphCreation", "CudaGraphCreation"},
    {133, "CudaGraphClone", "CudaGraphClone"},
    {134, "GpuMemoryTransferEvent", "GpuMemoryTransferEvent"},
    {135, "GlTrace", "GlTrace"},
    {136, "GpuVideoEngineWorkload", "GpuVideoEngineWorkload"},
    {137, "IBSwitchMetricsValuesEvent", "IBSwitchMetricsValuesEvent"},
    {138, "GenericEvent", "GenericEvent"},
    {139, "UncorePmuT23xScf", "UncorePmuT23xScf"},
    {140, "UncorePmuT23xDsu", "UncorePmuT23xDsu"},
    {141, "IBSwitchCongestionEvent", "IBSwitchCongestionEvent"},
    {142, "CudaDeviceMemcpy", "CudaDeviceMemcpy"},
    {143, "PerfMetricValueEvent", "PerfMetricValueEvent"},
    {144, "OpenXREvent", "OpenXREvent"},
};

static const struct enum_row ROWS_NVDRIVER_EVENT_ID[] = {
    {1, "NV_WGF2UM_EVENT_LOAD_BALANCE_GPU", "GPU load balance"},
    {8, "NV_WGF2UM_EVENT_LOAD_BALANCE_CPU", "CPU load balance"},
    {21, "NV_WGF2UM_EVENT_LOAD_BALANCE_MASTER_GPU", "GPU load balance master"},
    {22, "NV_WGF2UM_EVENT_LOAD_BALANCE_MASTER_CPU", "CPU load balance master"},
};

static const struct enum_row ROWS_OPENACC_DEVICE[] = {
    {0, "acc_device_none", "None"},
    {1, "acc_device_default", "Default"},
    {2, "acc_device_host", "Host"},
    {3, "acc_device_not_host", "Not host"},
    {4, "acc_device_nvidia", "NVIDIA"},
    {5, "acc_device_radeon", "Radeon"},
    {6, "acc_device_xeonphi", "Xeon Phi"},
    {7, "acc_device_pgi_opencl", "PGI OpenCL"},
    {8, "acc_device_nvidia_opencl", "NVIDIA OpenCL"},
    {9, "acc_device_opencl", "OpenCL"},
};

static const struct enum_row ROWS_OPENACC_EVENT_KIND[] = {
    {0, "CUPTI_OPENACC_EVENT_KIND_INVALID", "Invalid"},
    {1, "CUPTI_OPENACC_EVENT_KIND_DEVICE_INIT", "Device init"},
    {2, "CUPTI_OPENACC_EVENT_KIND_DEVICE_SHUTDOWN", "Device shutdown"},
    {3, "CUPTI_OPENACC_EVENT_KIND_RUNTIME_SHUTDOWN", "Runtime shutdown"},
    {4, "CUPTI_OPENACC_EVENT_KIND_ENQUEUE_LAUNCH", "Enqueue launch"},
    {5, "CUPTI_OPENACC_EVENT_KIND_ENQUEUE_UPLOAD", "Enqueue upload"},
    {6, "CUPTI_OPENACC_EVENT_KIND_ENQUEUE_DOWNLOAD", "Enqueue download"},
    {7, "CUPTI_OPENACC_EVENT_KIND_WAIT", "Wait"},
    {8, "CUPTI_OPENACC_EVENT_KIND_IMPLICIT_WAIT", "Implicit wait"},
    {9, "CUPTI_OPENACC_EVENT_KIND_COMPUTE_CONSTRUCT", "Compute construct"},
    {10, "CUPTI_OPENACC_EVENT_KIND_UPDATE", "UPDATE"},
    {11, "CUPTI_OPENACC_EVENT_KIND_ENTER_DATA", "Enter data"},
    {12, "CUPTI_OPENACC_EVENT_KIND_EXIT_DATA", "Exit data"},
    {13, "CUPTI_OPENACC_EVENT_KIND_CREATE", "Create"},
    {14, "CUPTI_OPENACC_EVENT_KIND_DELETE", "Delete"},
    {15, "CUPTI_OPENACC_EVENT_KIND_ALLOC", "Alloc"},
    {16, "CUPTI_OPENACC_EVENT_KIND_FREE", "Free"},
};

static const struct enum_row ROWS_OPENGL_DEBUG_SEVERITY[] = {
    {33387, "GL_DEBUG_SEVERITY_NOTIFICATION", "Notification"},
    {37190, "GL_DEBUG_SEVERITY_HIGH", "High"},
    {37191, "GL_DEBUG_SEVERITY_MEDIUM", "Medium"},
    {37192, "GL_DEBUG_SEVERITY_LOW", "Low"},
};

static const struct enum_row ROWS_OPENGL_DEBUG_SOURCE[] = {
    {33350, "GL_DEBUG_SOURCE_API", "API"},
    {33351, "GL_DEBUG_SOURCE_WINDOW_SYSTEM", "Window system"},
    {33352, "GL_DEBUG_SOURCE_SHADER_COMPILER", "Shader compiler"},
    {33353, "GL_DEBUG_SOURCE_THIRD_PARTY", "Third party"},
    {33354, "GL_DEBUG_SOURCE_APPLICATION", "Application"},
    {33355, "GL_DEBUG_SOURCE_OTHER", "Other"},
};

static const struct enum_row ROWS_OPENGL_DEBUG_TYPE[] = {
    {33356, "GL_DEBUG_TYPE_ERROR", "Error"},
    {33357, "GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR", "Deprecated behavior"},
    {33358, "GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR", "Undefined behavior"},
    {33359, "GL_DEBUG_TYPE_PORTABILITY", "Portability"},
    {33360, "GL_DEBUG_TYPE_PERFORMANCE", "Performance"},
    {33361, "GL_DEBUG_TYPE_OTHER", "Other"},
    {33384, "GL_DEBUG_TYPE_MARKER", "Marker"},
    {33385, "GL_DEBUG_TYPE_PUSH_GROUP", "Push group"},
    {33386, "GL_DEBUG_TYPE_POP_GROUP", "Pop group"},
};

static const struct enum_row ROWS_OPENMP_DISPATCH[] = {
    {1, "ompt_dispatch_iteration", "Iteration"},
    {2, "ompt_dispatch_section", "Section"},
};

static const struct enum_row ROWS_OPENMP_EVENT_KIND[] = {
    {0, "OPENMP_EVENT_KIND_INVALID", "Invalid"},
    {1, "OPENMP_EVENT_KIND_THREAD_BEGIN", "Thread begin"},
    {2, "OPENMP_EVENT_KIND_THREAD_END", "Thread end"},
    {3, "OPENMP_EVENT_KIND_PARALLEL_BEGIN", "Parallel begin"},
    {4, "OPENMP_EVENT_KIND_PARALLEL_END", "Parallel End"},
    {5, "OPENMP_EVENT_KIND_SYNC_REGION_WAIT_BEGIN", "Sync region wait begin"},
    {6, "OPENMP_EVENT_KIND_SYNC_REGION_WAIT_END", "Sync region wait end"},
    {7, "OPENMP_EVENT_KIND_SYNC_REGION_BEGIN", "Sync region begin"},
    {8, "OPENMP_EVENT_KIND_SYNC_REGION_END", "Sync region end"},
    {9, "OPENMP_EVENT_KIND_TASK_BEGIN", "Task begin"},
    {10, "OPENMP_EVENT_KIND_TASK_END", "Task end"},
    {11, "OPENMP_EVENT_KIND_MASTER_BEGIN", "Master begin"},
    {12, "OPENMP_EVENT_KIND_MASTER_END", "Master end"},
    {13, "OPENMP_EVENT_KIND_REDUCTION_BEGIN", "Reduction begin"},
    {14, "OPENMP_EVENT_KIND_REDUCTION_END", "Reduction end"},
    {15, "OPENMP_EVENT_KIND_TASK_CREATE", "Task create"},
    {16, "OPENMP_EVENT_KIND_TASK_SCHEDULE", "Task schedule"},
    {17, "OPENMP_EVENT_KIND_CANCEL", "Cancel"},
    {18, "OPENMP_EVENT_KIND_MUTEX_ACQUIRE", "Mutex acquire"},
    {19, "OPENMP_EVENT_KIND_MUTEX_ACQUIRED", "Mutex acquired"},
    {20, "OPENMP_EVENT_KIND_MUTEX_RELEASED", "Mutex released"},
    {21, "OPENMP_EVENT_KIND_LOCK_INIT", "Lock init"},
    {22, "OPENMP_EVENT_KIND_LOCK_DESTROY", "Lock destroy"},
    {23, "OPENMP_EVENT_KIND_WORKSHARE_BEGIN", "Workshare begin"},
    {24, "OPENMP_EVENT_KIND_WORKSHARE_END", "Workshare end"},
    {25, "OPENMP_EVENT_KIND_DISPATCH", "Dispatch"},
    {26, "OPENMP_EVENT_KIND_FLUSH", "Flush"},
    {27, "OPENMP_EVENT_KIND_THREAD", "Thread"},
    {28, "OPENMP_EVENT_KIND_PARALLEL", "Parallel"},
    {29, "OPENMP_EVENT_KIND_SYNC_REGION_WAIT", "Sync region wait"},
    {30, "OPENMP_EVENT_KIND_SYNC_REGION", "Sync region"},
    {31, "OPENMP_EVENT_KIND_TASK", "Task"},
    {32, "OPENMP_EVENT_KIND_MASTER", "Master"},
    {33, "OPENMP_EVENT_KIND_REDUCTION", "Reduction"},
    {34, "OPENMP_EVENT_KIND_MUTEX_WAIT", "Mutex wait"},
    {35, "OPENMP_EVENT_KIND_CRITICAL_SECTION", "Critical section"},
    {36, "OPENMP_EVENT_KIND_WORKSHARE", "Workshare"},
};

static const struct enum_row ROWS_OPENMP_MUTEX[] = {
    {1, "ompt_mutex_lock", "Wait for lock"},
    {2, "ompt_mutex_test_lock", "Testing lock"},
    {3, "ompt_mutex_nest_lock", "Wait for nested lock"},
    {4, "ompt_mutex_test_nest_lock", "Testing nested lock"},
    {5, "ompt_mutex_critical", "Wait for critical section entry"},
    {6, "ompt_mutex_atomic", "Wait for atomic region entry"},
    {7, "ompt_mutex_ordered", "Wait for ordered region entry"},
};

static const struct enum_row ROWS_OPENMP_SYNC_REGION[] = {
    {1, "ompt_sync_region_barrier", "Barrier"},
    {2, "ompt_sync_region_barrier_implicit", "Implicit barrier"},
    {3, "ompt_sync_region_barrier_explicit", "Explicit barrier"},
    {4, "ompt_sync_region_barrier_implementation", "Implementation barrier"},
    {5, "ompt_sync_region_taskwait", "Task wait"},
    {6, "ompt_sync_region_taskgroup", "Task group"},
    {7, "ompt_sync_region_reduction", "Reduction"},
};

static const struct enum_row ROWS_OPENMP_TASK_FLAG[] = {
    {1, "ompt_task_initial", "Initial"},
    {2, "ompt_task_implicit", "Implitic"},
    {4, "ompt_task_explicit", "Explicit"},
    {8, "ompt_task_target", "Target"},
    {134217728, "ompt_task_undeferred", "Undeferred"},
    {268435456, "ompt_task_untied", "United"},
    {536870912, "ompt_task_final", "Final"},
    {1073741824, "ompt_task_mergeable", "Mergeable"},
    {2147483648, "ompt_task_merged", "Merged"},
};

static const struct enum_row ROWS_OPENMP_TASK_STATUS[] = {
    {1, "ompt_task_complete", "Completed"},
    {2, "ompt_task_yield", "Yielded"},
    {3, "ompt_task_cancel", "Cancelled"},
    {4, "ompt_task_detach", "Detached"},
    {5, "ompt_task_early_fulfill", "Early fulfilled"},
    {6, "ompt_task_late_fulfill", "Late fulfilled"},
    {7, "ompt_task_switch", "Switched Out"},
};

static const struct enum_row ROWS_OPENMP_THREAD[] = {
    {1, "ompt_thread_initial", "Initial"},
    {2, "ompt_thread_worker", "Worker"},
    {3, "ompt_thread_other", "Internal"},
    {4, "ompt_thread_unknown", "Unknown"},
};

static const struct enum_row ROWS_OPENMP_WORK[] = {
    {1, "ompt_work_loop", "Loop region"},
    {2, "ompt_work_sections", "Sections region"},
    {3, "ompt_work_single_executor", "Single region executor"},
    {4, "ompt_work_single_other", "Single region waiting"},
    {5, "ompt_work_workshare", "Workshare retion"},
    {6, "ompt_work_distribute", "Distribute region"},
    {7, "ompt_work_taskloop", "Task loop region"},
};

static const struct enum_row ROWS_PMU_EVENT_SOURCE[] = {
    {1, "ArmPmu", "Arm PMU"},
    {2, "CarmelPmu", "Carmel PMU"},
    {3, "T23XPmuScf", "T23X PMU Scf"},
    {4, "T23XPmuDsu", "T23X PMU Dsu"},
};

static const struct enum_row ROWS_PMU_UNIT_TYPE[] = {
    {1, "PmuUnitCore", "Pmu Unit Core"},
    {2, "PmuUnitCpuCluster", "Pmu Unit Cpu Cluster"},
    {3, "PmuUnitScf", "Pmu Unit Scf"},
};

static const struct enum_row ROWS_SAMPLING_THREAD_STATE[] = {
    {0, "Unknown", "Unknown"},
    {1, "Running", "Running"},
    {2, "Interruptible", "Interruptible"},
    {3, "Uninterruptible", "Uninterruptible"},
    {4, "Stopped", "Stopped"},
    {5, "Terminated", "Terminated"},
    {6, "Unscheduled", "Unscheduled"},
    {7, "Waiting", "Waiting"},
    {8, "OSRuntime", "OS runtime"},
    {9, "Initialized", "Initialized"},
    {10, "Transition", "Transition"},
};

static const struct enum_row ROWS_SLI_TRANSER[] = {
    {0, "P2P_SKIPPED", "Skipped"},
    {1, "P2P_EARLY_PUSH", "Early push"},
    {2, "P2P_PUSH_FAILED", "Push failed"},
    {3, "P2P_2WAY_OR_PULL", "2way or pull"},
    {4, "P2P_PRESENT", "Present"},
    {5, "P2P_DX12_INIT_PUSH_ON_WRITE", "DX12 push on write"},
};

static const struct enum_row ROWS_STACK_UNWIND_METHOD[] = {
    {0, "Unknown", "Unknown"},
    {1, "FramePointer", "Frame pointer"},
    {2, "UnwindTable", "Unwind table"},
    {3, "LR_FramePointer", "LR frame pointer"},
    {4, "LR_UnwindTable", "LR unwind table"},
    {5, "KernelContext", "Kernel context"},
    {6, "DWARF_EH", "DWARF EH"},
    {7, "DWARF_DF", "DWARF DF"},
    {8, "LBR", "LBR"},
    {1000, "Undefined", "Undefined"},
};

static const struct enum_row ROWS_VIDEO_ENGINE_CODEC[] = {
    {0, "MPEG2", "MPEG-2"},
    {1, "VC1", "VC-1"},
    {2, "H264", "H.264"},
    {3, "MPEG4", "MPEG-4"},
    {4, "VP8", "VP8"},
    {5, "VP9", "VP9"},
    {6, "HEVC", "HEVC"},
    {7, "AV1", "AV1"},
};

static const struct enum_row ROWS_VIDEO_ENGINE_TYPE[] = {
    {0, "NVDEC", "NV Decode"},
    {1, "NVENC", "NV Encode"},
    {2, "NVJPEG", "NV JPEG"},
    {3, "OFA", "OFA"},
};

static const struct enum_row ROWS_VULKAN_PIPELINE_CREATION_FLAGS[] = {
    {1, "VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT", "Valid flag"},
    {2, "VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT", "Cache hit flag"},
    {4, "VK_PIPELINE_CREATION_FEEDBACK_BASE_PIPELINE_ACCELERATION_BIT", "Pipeline acceleration flag"},
};

static const struct enum_row ROWS_WDDM_ENGINE_TYPE[] = {
    {0, "DXGK_ENGINE_TYPE_OTHER", "Other"},
    {1, "DXGK_ENGINE_TYPE_3D", "3D"},
    {2, "DXGK_ENGINE_TYPE_VIDEO_DECODE", "Video decode"},
    {3, "DXGK_ENGINE_TYPE_VIDEO_ENCODE", "Video encode"},
    {4, "DXGK_ENGINE_TYPE_VIDEO_PROCESSING", "Video processing"},
    {5, "DXGK_ENGINE_TYPE_SCENE_ASSEMBLY", "Scene assembly"},
    {6, "DXGK_ENGINE_TYPE_COPY", "Copy"},
    {7, "DXGK_ENGINE_TYPE_OVERLAY", "Overlay"},
    {8, "DXGK_ENGINE_TYPE_CRYPTO", "Crypto"},
};

static const struct enum_row ROWS_WDDM_INTERRUPT_TYPE[] = {
    {1, "DXGK_INTERRUPT_DMA_COMPLETED", "DMA complete"},
    {2, "DXGK_INTERRUPT_DMA_PREEMPTED", "DMA preempted"},
    {3, "DXGK_INTERRUPT_CRTC_VSYNC", "Critical VSYNC"},
    {4, "DXGK_INTERRUPT_DMA_FAULTED", "CMA faulted"},
    {5, "DXGK_INTERRUPT_DISPLAYONLY_VSYNC", "Display-only VSYNC"},
    {6, "DXGK_INTERRUPT_DISPLAYONLY_PRESENT_PROGRESS", "Display-only progress"},
    {7, "DXGK_INTERRUPT_CRTC_VSYNC_WITH_MULTIPLANE_OVERLAY", "Critical VSYNC w/ overlay"},
    {8, "DXGK_INTERRUPT_MICACAST_CHUNK_PROCESSING_COMPLETE", "Miracast chunk complete"},
    {9, "DXGK_INTERRUPT_DMA_PAGE_FAULTED", "DMA page faulted"},
    {10, "DXGK_INTERRUPT_CRTC_VSYNC_WITH_MULTIPLANE_OVERLAY2", "Critical VSYNC w/ overlay 2"},
    {11, "DXGK_INTERRUPT_MONITORED_FENCE_SIGNALED", "Monitored fence"},
    {12, "DXGK_INTERRUPT_HWQUEUE_PAGE_FAULTED", "HW queue page fault"},
    {13, "DXGK_INTERRUPT_HWCONTEXTLIST_SWITCH_COMPLETED", "HW context switch"},
    {14, "DXGK_INTERRUPT_PERIODIC_MONITORED_FENCE_SIGNALED", "Periodic fence"},
    {15, "DXGK_INTERRUPT_SCHEDULING_LOG_INTERRUPT", "Scheduling log"},
    {16, "DXGK_INTERRUPT_GPU_ENGINE_TIMEOUT", "GPU timeout"},
    {17, "DXGK_INTERRUPT_SUSPEND_CONTEXT_COMPLETED", "Suspend ctx complete"},
};

static const struct enum_row ROWS_WDDM_PACKET_TYPE[] = {
    {0, "DXGKETW_RENDER_COMMAND_BUFFER", "Render"},
    {1, "DXGKETW_DEFERRED_COMMAND_BUFFER", "Deferred"},
    {2, "DXGKETW_SYSTEM_COMMAND_BUFFER", "System"},
    {3, "DXGKETW_MMIOFLIP_COMMAND_BUFFER", "MemMap IO Flip"},
    {4, "DXGKETW_WAIT_COMMAND_BUFFER", "Wait"},
    {5, "DXGKETW_SIGNAL_COMMAND_BUFFER", "Signal"},
    {6, "DXGKETW_DEVICE_COMMAND_BUFFER", "Device"},
    {7, "DXGKETW_SOFTWARE_COMMAND_BUFFER", "Software"},
};

static const struct enum_row ROWS_WDDM_PAGING_QUEUE_TYPE[] = {
    {0, "VIDMM_PAGING_QUEUE_TYPE_UMD", "UMD"},
    {1, "VIDMM_PAGING_QUEUE_TYPE_DEFAULT", "Default"},
    {2, "VIDMM_PAGING_QUEUE_TYPE_EVICT", "Evict"},
    {3, "VIDMM_PAGING_QUEUE_TYPE_RECLAIM", "Reclaim"},
};

static const struct enum_row ROWS_WDDM_VIDMM_OP_TYPE[] = {
    {0, "None", "None"},
    {101, "RestoreSegments", "Restore segments"},
    {102, "PurgeSegments", "Purge segements"},
    {103, "CleanupPrimary", "Cleanup primary"},
    {104, "AllocatePagingBufferResources", "Allocate paging buffer resources"},
    {105, "FreePagingBufferResources", "Free paging buffer resources"},
    {106, "ReportVidMmState", "Report VIDMM State"},
    {107, "RunApertureCoherencyTest", "Run aperture coherency test"},
    {108, "RunUnmapToDummyPageTest", "Run unmap to dummy page test"},
    {109, "DeferredCommand", "Deferred command"},
    {110, "SuspendMemorySegmentAccess", "Suspend mem seg access"},
    {111, "ResumeMemorySegmentAccess", "Resume mem seg access"},
    {112, "EvictAndFlush", "Evict and flush"},
    {113, "CommitVirtualAddressRange", "Commit virt-addr range"},
    {114, "UncommitVirtualAddressRange", "Uncommit virt-addrrange"},
    {115, "DestroyVirtualAddressAllocator", "Destroy virt-addr allocator"},
    {116, "PageInDevice", "Page in device"},
    {117, "MapContextAllocation", "Map context allocation"},
    {118, "InitPagingProcessVaSpace", "Init praging process VA space"},
    {200, "CloseAllocation", "Close allocation"},
    {202, "ComplexLock", "Complex lock"},
    {203, "PinAllocation", "Pin allocation"},
    {204, "FlushPendingGpuAccess", "Flish pending GPU access"},
    {205, "UnpinAllocation", "Unpin allocation"},
    {206, "MakeResident", "Make resident"},
    {207, "Evict", "Evict"},
    {208, "LockInAperture", "Lock in aperture"},
    {209, "InitContextAllocation", "Init context allocation"},
    {210, "ReclaimAllocation", "Reclaim allocation"},
    {211, "DiscardAllocation", "Discard allocation"},
    {212, "SetAllocationPriority", "Set allocation priority"},
    {1000, "EvictSystemMemoryOfferList", "Evict sys-mem offer list"},
};

static const struct enum_table ENUM_TABLES[] = {
    {"ENUM_CUDA_DEV_MEM_EVENT_OPER", "CUDA device mem event operation labels", ROWS_CUDA_DEV_MEM_EVENT_OPER, COUNT_OF(ROWS_CUDA_DEV_MEM_EVENT_OPER)},
    {"ENUM_CUDA_FUNC_CACHE_CONFIG", "CUDA function cache config labels", ROWS_CUDA_FUNC_CACHE_CONFIG, COUNT_OF(ROWS_CUDA_FUNC_CACHE_CONFIG)},
    {"ENUM_CUDA_KERNEL_LAUNCH_TYPE", "CUDA kernel launch type labels", ROWS_CUDA_KERNEL_LAUNCH_TYPE, COUNT_OF(ROWS_CUDA_KERNEL_LAUNCH_TYPE)},
    {"ENUM_CUDA_MEMCPY_OPER", "CUDA memcpy operation labels", ROWS_CUDA_MEMCPY_OPER, COUNT_OF(ROWS_CUDA_MEMCPY_OPER)},
    {"ENUM_CUDA_MEMPOOL_OPER", "CUDA mempool operation labels", ROWS_CUDA_MEMPOOL_OPER, COUNT_OF(ROWS_CUDA_MEMPOOL_OPER)},
    {"ENUM_CUDA_MEMPOOL_TYPE", "CUDA mempool type labels", ROWS_CUDA_MEMPOOL_TYPE, COUNT_OF(ROWS_CUDA_MEMPOOL_TYPE)},
    {"ENUM_CUDA_MEM_KIND", "CUDA memory kind labels", ROWS_CUDA_MEM_KIND, COUNT_OF(ROWS_CUDA_MEM_KIND)},
    {"ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG", "CUDA shared memory limit config labels", ROWS_CUDA_SHARED_MEM_LIMIT_CONFIG, COUNT_OF(ROWS_CUDA_SHARED_MEM_LIMIT_CONFIG)},
    {"ENUM_CUDA_UNIF_MEM_ACCESS_TYPE", "CUDA unified memory access type labels", ROWS_CUDA_UNIF_MEM_ACCESS_TYPE, COUNT_OF(ROWS_CUDA_UNIF_MEM_ACCESS_TYPE)},
    {"ENUM_CUDA_UNIF_MEM_MIGRATION", "CUDA unified memory migration cause labels", ROWS_CUDA_UNIF_MEM_MIGRATION, COUNT_OF(ROWS_CUDA_UNIF_MEM_MIGRATION)},
    {"ENUM_CUPTI_STREAM_TYPE", "CUPTI stream type labels", ROWS_CUPTI_STREAM_TYPE, COUNT_OF(ROWS_CUPTI_STREAM_TYPE)},
    {"ENUM_CUPTI_SYNC_TYPE", "CUPTI synchronization type labels", ROWS_CUPTI_SYNC_TYPE, COUNT_OF(ROWS_CUPTI_SYNC_TYPE)},
    {"ENUM_D3D12_CMD_LIST_TYPE", "D3D12 command list type labels", ROWS_D3D12_CMD_LIST_TYPE, COUNT_OF(ROWS_D3D12_CMD_LIST_TYPE)},
    {"ENUM_D3D12_HEAP_FLAGS", "D3D12 heap flag labels", ROWS_D3D12_HEAP_FLAGS, COUNT_OF(ROWS_D3D12_HEAP_FLAGS)},
    {"ENUM_D3D12_HEAP_TYPE", "D3D12 heap type labels", ROWS_D3D12_HEAP_TYPE, COUNT_OF(ROWS_D3D12_HEAP_TYPE)},
    {"ENUM_D3D12_PAGE_PROPERTY", "D3D12 CPU page property labels", ROWS_D3D12_PAGE_PROPERTY, COUNT_OF(ROWS_D3D12_PAGE_PROPERTY)},
    {"ENUM_DIAGNOSTIC_SEVERITY_LEVEL", "Diagnostic message severity level labels", ROWS_DIAGNOSTIC_SEVERITY_LEVEL, COUNT_OF(ROWS_DIAGNOSTIC_SEVERITY_LEVEL)},
    {"ENUM_DIAGNOSTIC_SOURCE_TYPE", "Diagnostic message source type labels", ROWS_DIAGNOSTIC_SOURCE_TYPE, COUNT_OF(ROWS_DIAGNOSTIC_SOURCE_TYPE)},
    {"ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE", "Diagnostic message timestamp source lables", ROWS_DIAGNOSTIC_TIMESTAMP_SOURCE, COUNT_OF(ROWS_DIAGNOSTIC_TIMESTAMP_SOURCE)},
    {"ENUM_DXGI_FORMAT", "DXGI image format labels", ROWS_DXGI_FORMAT, COUNT_OF(ROWS_DXGI_FORMAT)},
    {"ENUM_ETW_MEMORY_TRANSFER_TYPE", "memory transfer type labels", ROWS_ETW_MEMORY_TRANSFER_TYPE, COUNT_OF(ROWS_ETW_MEMORY_TRANSFER_TYPE)},
    {"ENUM_GPU_CTX_SWITCH", "GPU context switch labels", ROWS_GPU_CTX_SWITCH, COUNT_OF(ROWS_GPU_CTX_SWITCH)},
    {"ENUM_NET_DEVICE_ID", "NIC PCIe device id labels", ROWS_NET_DEVICE_ID, COUNT_OF(ROWS_NET_DEVICE_ID)},
    {"ENUM_NET_IB_DEVICE_TYPE", "network device types", ROWS_NET_IB_DEVICE_TYPE, COUNT_OF(ROWS_NET_IB_DEVICE_TYPE)},
    {"ENUM_NET_LINK_TYPE", "NIC link layer labels", ROWS_NET_LINK_TYPE, COUNT_OF(ROWS_NET_LINK_TYPE)},
    {"ENUM_NET_VENDOR_ID", "NIC PCIe vendor id labels", ROWS_NET_VENDOR_ID, COUNT_OF(ROWS_NET_VENDOR_ID)},
    {"ENUM_NSYS_EVENT_CLASS", "Nsys event class labels", ROWS_NSYS_EVENT_CLASS, COUNT_OF(ROWS_NSYS_EVENT_CLASS)},
    {"ENUM_NSYS_EVENT_TYPE", "Nsys event type labels", ROWS_NSYS_EVENT_TYPE, COUNT_OF(ROWS_NSYS_EVENT_TYPE)},
    {"ENUM_NVDRIVER_EVENT_ID", "NV-Driver event it labels", ROWS_NVDRIVER_EVENT_ID, COUNT_OF(ROWS_NVDRIVER_EVENT_ID)},
    {"ENUM_OPENACC_DEVICE", "OpenACC device type labels", ROWS_OPENACC_DEVICE, COUNT_OF(ROWS_OPENACC_DEVICE)},
    {"ENUM_OPENACC_EVENT_KIND", "OpenACC event type labels", ROWS_OPENACC_EVENT_KIND, COUNT_OF(ROWS_OPENACC_EVENT_KIND)},
    {"ENUM_OPENGL_DEBUG_SEVERITY", "OpenGL debug severity labels", ROWS_OPENGL_DEBUG_SEVERITY, COUNT_OF(ROWS_OPENGL_DEBUG_SEVERITY)},
    {"ENUM_OPENGL_DEBUG_SOURCE", "OpenGL debug source labels", ROWS_OPENGL_DEBUG_SOURCE, COUNT_OF(ROWS_OPENGL_DEBUG_SOURCE)},
    {"ENUM_OPENGL_DEBUG_TYPE", "OpenGL debug type labels", ROWS_OPENGL_DEBUG_TYPE, COUNT_OF(ROWS_OPENGL_DEBUG_TYPE)},
    {"ENUM_OPENMP_DISPATCH", "OpenMP dispatch labels", ROWS_OPENMP_DISPATCH, COUNT_OF(ROWS_OPENMP_DISPATCH)},
    {"ENUM_OPENMP_EVENT_KIND", "OpenMP event kind labels", ROWS_OPENMP_EVENT_KIND, COUNT_OF(ROWS_OPENMP_EVENT_KIND)},
    {"ENUM_OPENMP_MUTEX", "OpenMP mutex labels", ROWS_OPENMP_MUTEX, COUNT_OF(ROWS_OPENMP_MUTEX)},
    {"ENUM_OPENMP_SYNC_REGION", "OpenMP sync region labels", ROWS_OPENMP_SYNC_REGION, COUNT_OF(ROWS_OPENMP_SYNC_REGION)},
    {"ENUM_OPENMP_TASK_FLAG", "OpenMP task flags labels", ROWS_OPENMP_TASK_FLAG, COUNT_OF(ROWS_OPENMP_TASK_FLAG)},
    {"ENUM_OPENMP_TASK_STATUS", "OpenMP task status labels", ROWS_OPENMP_TASK_STATUS, COUNT_OF(ROWS_OPENMP_TASK_STATUS)},
    {"ENUM_OPENMP_THREAD", "OpenMP thread labels", ROWS_OPENMP_THREAD, COUNT_OF(ROWS_OPENMP_THREAD)},
    {"ENUM_OPENMP_WORK", "OpenMP work labels", ROWS_OPENMP_WORK, COUNT_OF(ROWS_OPENMP_WORK)},
    {"ENUM_PMU_EVENT_SOURCE", "PMU event source labels", ROWS_PMU_EVENT_SOURCE, COUNT_OF(ROWS_PMU_EVENT_SOURCE)},
    {"ENUM_PMU_UNIT_TYPE", "PMU unit type labels", ROWS_PMU_UNIT_TYPE, COUNT_OF(ROWS_PMU_UNIT_TYPE)},
    {"ENUM_SAMPLING_THREAD_STATE", "Sampling thread state labels", ROWS_SAMPLING_THREAD_STATE, COUNT_OF(ROWS_SAMPLING_THREAD_STATE)},
    {"ENUM_SLI_TRANSER", "OpenMP task status labels", ROWS_SLI_TRANSER, COUNT_OF(ROWS_SLI_TRANSER)},
    {"ENUM_STACK_UNWIND_METHOD", "Stack unwind method labels", ROWS_STACK_UNWIND_METHOD, COUNT_OF(ROWS_STACK_UNWIND_METHOD)},
    {"ENUM_VIDEO_ENGINE_CODEC", "Video engine codec labels", ROWS_VIDEO_ENGINE_CODEC, COUNT_OF(ROWS_VIDEO_ENGINE_CODEC)},
    {"ENUM_VIDEO_ENGINE_TYPE", "Video engine type id labels", ROWS_VIDEO_ENGINE_TYPE, COUNT_OF(ROWS_VIDEO_ENGINE_TYPE)},
    {"ENUM_VULKAN_PIPELINE_CREATION_FLAGS", "Vulkan pipeline creation feedback flag labels", ROWS_VULKAN_PIPELINE_CREATION_FLAGS, COUNT_OF(ROWS_VULKAN_PIPELINE_CREATION_FLAGS)},
    {"ENUM_WDDM_ENGINE_TYPE", "WDDM engine type labels", ROWS_WDDM_ENGINE_TYPE, COUNT_OF(ROWS_WDDM_ENGINE_TYPE)},
    {"ENUM_WDDM_INTERRUPT_TYPE", "WDDM DMA interrupt type labels", ROWS_WDDM_INTERRUPT_TYPE, COUNT_OF(ROWS_WDDM_INTERRUPT_TYPE)},
    {"ENUM_WDDM_PACKET_TYPE", "WDDM packet type labels", ROWS_WDDM_PACKET_TYPE, COUNT_OF(ROWS_WDDM_PACKET_TYPE)},
    {"ENUM_WDDM_PAGING_QUEUE_TYPE", "WDDM paging queue type labels", ROWS_WDDM_PAGING_QUEUE_TYPE, COUNT_OF(ROWS_WDDM_PAGING_QUEUE_TYPE)},
    {"ENUM_WDDM_VIDMM_OP_TYPE", "WDDM VidMm operation type labels", ROWS_WDDM_VIDMM_OP_TYPE, COUNT_OF(ROWS_WDDM_VIDMM_OP_TYPE)},
};

/* ======================================================================================= options */

struct config {
    const char *out_path;
    uint64_t seed;
    int64_t kernels;
    int64_t memcpys;
    int64_t memsets;
    int64_t other_api;
    int64_t processes;
    int64_t threads;
    int64_t devices;
    int64_t streams;
    int64_t kernel_names;
    int64_t nvtx_ranges;
    int64_t osrt_calls;
    int64_t zero_durations;
    int64_t vulkan, opengl, dx11, dx12; /* graphics debug ranges */
    int64_t launch_ranges; /* NVTX ranges around GPU launches (see "NVTX around launches") */
    bool backtrace;
    bool overlap;
    bool collide;
    bool enums;
    bool green_context;
    /* NVTX range edge cases (block "NVTX range edge cases" below) */
    bool nvtx_edges;
    bool nvtx_domain_threads;
    bool example;
    bool force;
    bool quiet;
    bool help;
    /* unified memory, OpenMP, OpenACC, WDDM */
    int64_t um_events;
    int64_t openmp_events;
    int64_t openacc_events;
    int64_t wddm_packets;
    int64_t backtrace_processes; /* derived: the first this many processes get backtrace rows */
    /* MPI, network, NvVideo */
    int64_t mpi_events;
    int64_t net_samples;
    int64_t nvvideo_calls;
    bool mpi_no_ranks;
    bool mpi_empty_ranks;
    bool net_no_nic_map;
    /* DX12 memory operations */
    int64_t dx12_mem_calls;
    /* profiler overhead */
    int64_t overhead_rows;
    /* export faults for `nstats check` */
    int64_t fault_dup_gpu, fault_orphan_gpu, fault_stream_overlap, fault_bad_durations;
    int64_t fault_open_ranges, fault_truncated, fault_graph_rows;
    /* GPU time: CUDA graphs */
    int64_t graph_launches;
    /* scale: sizes that switch nstats's algorithms */
    int64_t corr_stride;
};

enum option_kind {
    OPT_COUNT, /* --name N: an integer in [min, max] */
    OPT_SEED,  /* --name N: any unsigned 64-bit integer */
    OPT_PATH,  /* --name FILE */
    OPT_SET,   /* a flag that sets a bool */
    OPT_CLEAR, /* a flag that clears a bool */
};

struct option_spec {
    const char *name;
    const char *alias; /* a one-letter form, or NULL */
    enum option_kind kind;
    size_t field;      /* offsetof(struct config, ...) */
    int64_t min, max;  /* OPT_COUNT only */
    bool content;      /* chooses content, so it cannot be combined with --example */
    const char *help;
};

#define FIELD(f) offsetof(struct config, f)
#define MAX_OPS INT64_C(1000000000)

static const struct option_spec OPTIONS[] = {
    {"--output", "-o", OPT_PATH, FIELD(out_path), 0, 0, false,
     "write the export to FILE (required; an existing FILE is refused)"},
    {"--force", NULL, OPT_SET, FIELD(force), 0, 0, false, "overwrite FILE if it exists"},
    {"--quiet", "-q", OPT_SET, FIELD(quiet), 0, 0, false, "no progress report on stderr for big runs"},
    {"--example", NULL, OPT_SET, FIELD(example), 0, 0, false,
     "the bundled example: 2 processes on 2 devices, every kind of row, backtraces on the first process, "
     "a few hundred rows, fixed content"},
    {"--seed", NULL, OPT_SEED, FIELD(seed), 0, 0, true, "seed of the pseudo-random content"},
    {"--kernels", NULL, OPT_COUNT, FIELD(kernels), 0, MAX_OPS, true,
     "kernel launches: one cudaLaunchKernel_v7000 runtime row and one kernel row each"},
    {"--memcpy", NULL, OPT_COUNT, FIELD(memcpys), 0, MAX_OPS, true,
     "memory copies, each with its cudaMemcpy* call; unified-memory migrations have none. "
     "From 20 on, every copyKind and every source and destination memory kind appears"},
    {"--memset", NULL, OPT_COUNT, FIELD(memsets), 0, MAX_OPS, true, "memsets, each with its cudaMemset* call"},
    {"--other-api", NULL, OPT_COUNT, FIELD(other_api), 0, MAX_OPS, true,
     "CUDA runtime and driver calls with no GPU work (cudaMalloc, cudaStreamSynchronize, cuMemAlloc_v2, ...)"},
    {"--processes", NULL, OPT_COUNT, FIELD(processes), 1, 1000, true, "processes"},
    {"--threads", NULL, OPT_COUNT, FIELD(threads), 1, 1000, true, "threads per process that make calls"},
    {"--devices", NULL, OPT_COUNT, FIELD(devices), 1, 64, true,
     "GPUs; with at least as many processes as GPUs each process uses one, otherwise they are shared out"},
    {"--streams", NULL, OPT_COUNT, FIELD(streams), 1, 64, true,
     "streams per device and process; the first one is the null stream"},
    {"--kernel-names", NULL, OPT_COUNT, FIELD(kernel_names), 1, 1000000, true,
     "distinct kernels (templated C++ names with commas and spaces, extern \"C\" names)"},
    {"--nvtx", NULL, OPT_COUNT, FIELD(nvtx_ranges), 0, MAX_OPS, true,
     "NVTX ranges: push/pop nested up to 4 deep and start/end, in the default domain and 2 named ones; "
     "also about one mark per 8 ranges"},
    {"--osrt", NULL, OPT_COUNT, FIELD(osrt_calls), 0, MAX_OPS, true, "OS runtime calls (OSRT_API)"},
    {"--zero-durations", NULL, OPT_COUNT, FIELD(zero_durations), 0, MAX_OPS, true,
     "GPU operations (kernel, memcpy, memset) that get a zero duration"},
    {"--vulkan", NULL, OPT_COUNT, FIELD(vulkan), 0, MAX_OPS, true,
     "Vulkan debug-utils label ranges (begin and end calls, and their GPU workloads) in frames of passes, "
     "with the Vulkan API calls of each frame"},
    {"--opengl", NULL, OPT_COUNT, FIELD(opengl), 0, MAX_OPS, true,
     "OpenGL KHR_debug groups on the CPU and the GPU, in frames of passes; one more is left open"},
    {"--dx11", NULL, OPT_COUNT, FIELD(dx11), 0, MAX_OPS, true, "D3D11 PIX event ranges (begin and end calls)"},
    {"--dx12", NULL, OPT_COUNT, FIELD(dx12), 0, MAX_OPS, true,
     "D3D12 PIX event ranges on a command list (begin and end calls, and their GPU workloads)"},
    {"--launch-ranges", NULL, OPT_COUNT, FIELD(launch_ranges), 0, MAX_OPS, true,
     "about N more NVTX ranges, around GPU launches on the launching thread: push/pop ranges that hold "
     "1 to 8 launches, inside them up to 3 nested push/pop ranges around one launch, and 1 in 4 "
     "chains inside a start/end range (1 in 8 of them ended by another thread); the other ranges "
     "of --nvtx do not nest with these, so use --nvtx 0 with it"},
    {"--backtrace", NULL, OPT_SET, FIELD(backtrace), 0, 0, true,
     "every CUDA API call also gets a CUDA backtrace row (eventClass 67) and a callchain"},
    {"--overlap", NULL, OPT_SET, FIELD(overlap), 0, 0, true,
     "kernels on different streams of a device overlap in time (default: a device runs one operation at a time)"},
    {"--collide", NULL, OPT_SET, FIELD(collide), 0, 0, true,
     "correlationIds start at the same value in every process, as in real captures (the default)"},
    {"--no-collide", NULL, OPT_CLEAR, FIELD(collide), 0, 0, true, "give each process its own correlationId range"},
    {"--no-enums", NULL, OPT_CLEAR, FIELD(enums), 0, 0, true, "omit the ENUM_* tables, like exports before schema 3.0"},
    {"--no-green-context", NULL, OPT_CLEAR, FIELD(green_context), 0, 0, true,
     "omit the greenContextId columns, like exports before 2024.2"},
    {"--um", NULL, OPT_COUNT, FIELD(um_events), 0, MAX_OPS, true,
     "unified memory events: migrations each way (CUPTI_ACTIVITY_KIND_MEMCPY with a virtualAddress) and CPU and GPU "
     "page faults, over a few pages per process so that addresses repeat"},
    {"--openmp", NULL, OPT_COUNT, FIELD(openmp_events), 0, MAX_OPS, true,
     "OpenMP events in five OPENMP_EVENT_KIND_* tables (parallel, sync region, sync region wait, workshare, task)"},
    {"--openacc", NULL, OPT_COUNT, FIELD(openacc_events), 0, MAX_OPS, true,
     "OpenACC events in CUPTI_ACTIVITY_KIND_OPENACC_DATA, _LAUNCH and _OTHER"},
    {"--wddm", NULL, OPT_COUNT, FIELD(wddm_packets), 0, MAX_OPS, true,
     "WDDM packets: queue and DMA packet start and stop events on three contexts per process "
     "(TARGET_INFO_WDDM_CONTEXTS); the last ones may still be in flight"},
    {"--nvtx-edges", NULL, OPT_SET, FIELD(nvtx_edges), 0, 0, true,
     "after everything else, every thread of the first process pushes the same odd ranges at the same "
     "instants: a chain 8 deep, equal starts and ends, identical twins, a zero-length range where two "
     "ranges touch, ranges that cross, and (first thread) a range never popped"},
    {"--nvtx-domain-threads", NULL, OPT_SET, FIELD(nvtx_domain_threads), 0, 0, true,
     "the named NVTX domains are created again on every other thread of each process (rows added at the "
     "end of NVTX_EVENTS)"},
    /* MPI, network, NvVideo */
    {"--mpi", NULL, OPT_COUNT, FIELD(mpi_events), 0, MAX_OPS, true,
     "MPI events (point-to-point, collectives, start/wait, other), every rank (process) calling in lockstep, "
     "with MPI_RANKS; rank 0's MPI_Finalize has no end"},
    {"--mpi-no-ranks", NULL, OPT_SET, FIELD(mpi_no_ranks), 0, 0, true, "leave MPI_RANKS out"},
    {"--mpi-empty-ranks", NULL, OPT_SET, FIELD(mpi_empty_ranks), 0, 0, true, "write MPI_RANKS with no rows"},
    {"--net", NULL, OPT_COUNT, FIELD(net_samples), 0, MAX_OPS, true,
     "1 ms samples of 4 NICs and 2 InfiniBand switches (bytes, packets, send waits)"},
    {"--net-no-nic-map", NULL, OPT_SET, FIELD(net_no_nic_map), 0, 0, true, "leave NIC_ID_MAP out"},
    {"--nvvideo", NULL, OPT_COUNT, FIELD(nvvideo_calls), 0, MAX_OPS, true,
     "NvVideo encoder, decoder and nvJPEG API calls"},
    /* DX12 memory operations */
    {"--dx12-mem", NULL, OPT_COUNT, FIELD(dx12_mem_calls), 0, MAX_OPS, true,
     "D3D12 calls in DX12_API with their DX12_MEMORY_OPERATION rows: heaps and committed resources "
     "created with and without zeroing, maps, unmaps, subresource reads and writes on every heap type "
     "and CPU page; some calls touch two subresources, some touch no memory"},
    {"--overhead", NULL, OPT_COUNT, FIELD(overhead_rows), 0, MAX_OPS, true,
     "PROFILER_OVERHEAD rows per process and device: CUDA profiling flush/stop overhead and other profiler "
     "work, inside, across the ends of and outside the span of its GPU operations"},
    /* export faults for `nstats check`: applied to the finished export, each from a random stream of
     * its own, so that without them every row is what it was */
    {"--dup-gpu-rows", NULL, OPT_COUNT, FIELD(fault_dup_gpu), 0, MAX_OPS, true,
     "exact copies of N random kernel, memcpy or memset rows; every third one is instead a memset row "
     "moved onto a kernel's device, stream, start and end (a duplicate across tables)"},
    {"--orphan-gpu-rows", NULL, OPT_COUNT, FIELD(fault_orphan_gpu), 0, MAX_OPS, true,
     "N random kernel, memcpy or memset rows get a correlationId no call has (their calls are left "
     "without GPU work)"},
    {"--stream-overlap", NULL, OPT_COUNT, FIELD(fault_stream_overlap), 0, MAX_OPS, true,
     "N random kernels end 1 to 200 us later (most then overlap the next kernel of their stream)"},
    {"--bad-durations", NULL, OPT_COUNT, FIELD(fault_bad_durations), 0, MAX_OPS, true,
     "N random kernel, memcpy, memset or runtime rows end 0 to 2 ns before they start"},
    {"--open-ranges", NULL, OPT_COUNT, FIELD(fault_open_ranges), 0, MAX_OPS, true,
     "N random NVTX push/pop or start/end ranges lose their end"},
    {"--truncated", NULL, OPT_COUNT, FIELD(fault_truncated), 0, MAX_OPS, true,
     "N random kernel, memcpy, runtime or NVTX rows move after the session's end (ANALYSIS_DETAILS.duration)"},
    {"--graph-rows", NULL, OPT_COUNT, FIELD(fault_graph_rows), 0, MAX_OPS, true,
     "N CUPTI_ACTIVITY_KIND_GRAPH_TRACE rows (graph-level tracing) after random kernels on their stream, "
     "and CUDA_GRAPH_TRACE_OPTIONS:MODE=Graph in META_DATA_CAPTURE"},
    /* GPU time: CUDA graphs */
    {"--graphs", NULL, OPT_COUNT, FIELD(graph_launches), 0, MAX_OPS, true,
     "CUDA graph launches traced at graph level: a cudaGraphLaunch_v10000 call and one "
     "CUPTI_ACTIVITY_KIND_GRAPH_TRACE row each (its kernels in no KERNEL row), on the streams of every process, "
     "spread over the run so that they overlap kernels, copies and each other now and then"},
    /* scale: sizes that switch nstats's algorithms */
    {"--corr-stride", NULL, OPT_COUNT, FIELD(corr_stride), 1, 1000000, true,
     "consecutive CUDA calls of a process take correlationIds N apart (default 1: nearly dense, as in "
     "real captures); from about 5 on, a process's ids are too sparse for a direct-address index"},
    {"--help", "-h", OPT_SET, FIELD(help), 0, 0, false, "print this help and exit"},
};

static struct config default_config(void)
{
    return (struct config){
        .seed = 1,
        .kernels = 1000,
        .memcpys = 40,
        .memsets = 10,
        .other_api = 40,
        .processes = 2,
        .threads = 2,
        .devices = 2,
        .streams = 2,
        .kernel_names = 12,
        .nvtx_ranges = 60,
        .osrt_calls = 40,
        .collide = true,
        .enums = true,
        .green_context = true,
        .corr_stride = 1,
    };
}

/* The bundled example (`make run` prints its reports): small enough to read, every kind of row present. */
static void apply_example(struct config *c)
{
    c->seed = 20240611;
    c->kernels = 32;
    c->memcpys = 20;
    c->memsets = 4;
    c->other_api = 12;
    c->processes = 2;
    c->threads = 2;
    c->devices = 2;
    c->streams = 2;
    c->kernel_names = 8;
    c->nvtx_ranges = 24;
    c->osrt_calls = 20;
    c->backtrace_processes = 1;
}

/* Prints `text` from column `indent` on, breaking lines at spaces before column `width`. */
static void print_wrapped(FILE *out, const char *text, int indent, int width)
{
    int col = indent;
    while (*text) {
        int word = (int)strcspn(text, " ");
        if (col > indent && col + 1 + word > width) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        }
        fprintf(out, " %.*s", word, text);
        col += 1 + word;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

static void print_help(FILE *out)
{
    const struct config defaults = default_config();
    fputs("usage: nsysgen [options] -o FILE\n"
          "Writes a synthetic Nsight Systems 2024.2.3 SQLite export (schema 3.11) with chosen content.\n"
          "The same options always give the same bytes.\n\noptions:\n",
          out);
    for (size_t i = 0; i < COUNT_OF(OPTIONS); i++) {
        const struct option_spec *o = &OPTIONS[i];
        char left[64];
        const char *arg = o->kind == OPT_PATH ? " FILE" : o->kind == OPT_COUNT || o->kind == OPT_SEED ? " N" : "";
        snprintf(left, sizeof left, "%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "    ", o->name, arg);
        char help[512];
        const char *field = (const char *)&defaults + o->field;
        if (o->kind == OPT_COUNT)
            snprintf(help, sizeof help, "%s (default %" PRId64 ")", o->help, *(const int64_t *)(const void *)field);
        else if (o->kind == OPT_SEED)
            snprintf(help, sizeof help, "%s (default %" PRIu64 ")", o->help, *(const uint64_t *)(const void *)field);
        else
            snprintf(help, sizeof help, "%s", o->help);
        fprintf(out, "  %-24s", left);
        print_wrapped(out, help, 26, 100);
    }
}

static _Noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("nsysgen: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'nsysgen --help'.\n", stderr);
    exit(2);
}

static const struct option_spec *find_option(const char *arg, size_t len)
{
    for (size_t i = 0; i < COUNT_OF(OPTIONS); i++) {
        const struct option_spec *o = &OPTIONS[i];
        if ((strlen(o->name) == len && strncmp(o->name, arg, len) == 0) ||
            (o->alias && strlen(o->alias) == len && strncmp(o->alias, arg, len) == 0))
            return o;
    }
    return NULL;
}

static int64_t parse_count(const struct option_spec *o, const char *text)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v < o->min || v > o->max)
        usage_error("%s: expected a whole number from %" PRId64 " to %" PRId64 ", got '%s'", o->name, o->min,
                    o->max, text);
    return v;
}

static uint64_t parse_seed(const struct option_spec *o, const char *text)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-')
        usage_error("%s: expected a whole number from 0 to %" PRIu64 ", got '%s'", o->name, UINT64_MAX, text);
    return v;
}

/* Stores one option's value into the config. */
static void apply_option(struct config *c, const struct option_spec *o, const char *value)
{
    void *field = (char *)c + o->field;
    switch (o->kind) {
    case OPT_COUNT: *(int64_t *)field = parse_count(o, value); break;
    case OPT_SEED: *(uint64_t *)field = parse_seed(o, value); break;
    case OPT_PATH: *(const char **)field = value; break;
    case OPT_SET: *(bool *)field = true; break;
    case OPT_CLEAR: *(bool *)field = false; break;
    }
}

static struct config parse_args(int argc, char **argv)
{
    struct config c = default_config();
    const char *content_option = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const struct option_spec *o = find_option(arg, len);
        if (!o)
            usage_error("unknown option '%s'", arg);
        bool takes_value = o->kind == OPT_COUNT || o->kind == OPT_SEED || o->kind == OPT_PATH;
        const char *value = NULL;
        if (takes_value) {
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else
                usage_error("%s needs a value", o->name);
        } else if (eq) {
            usage_error("%s takes no value", o->name);
        }
        if (o->content)
            content_option = o->name;
        apply_option(&c, o, value);
    }
    if (c.help)
        return c;
    if (c.example) {
        if (content_option)
            usage_error("--example has fixed content; it cannot be combined with %s", content_option);
        apply_example(&c);
    } else {
        c.backtrace_processes = c.backtrace ? c.processes : 0;
    }
    if (!c.out_path)
        usage_error("no output file: give -o FILE");
    if (c.processes * c.threads > 100000)
        usage_error("--processes times --threads must be at most 100000");
    return c;
}

/* ======================================================================================= errors */

/* What fail() reports about and cleans up: the file being written. */
static struct {
    const char *shown; /* the output path as given: the <file> of every message */
    char *tmp_path;    /* the half-written temporary file, removed on failure */
    sqlite3 *db;
} g_out = {"nsysgen", NULL, NULL};

static void discard_output(void)
{
    if (g_out.db) {
        sqlite3_close_v2(g_out.db);
        g_out.db = NULL;
    }
    if (g_out.tmp_path) {
        unlink(g_out.tmp_path);
        free(g_out.tmp_path);
        g_out.tmp_path = NULL;
    }
}

/* Prints `nsysgen: <file>: <what>`, removes the temporary file and exits with status 1. */
static _Noreturn void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "nsysgen: %s: ", g_out.shown);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    discard_output();
    exit(1);
}

static _Noreturn void fail_sqlite(const char *what)
{
    fail("%s: %s", what, g_out.db ? sqlite3_errmsg(g_out.db) : "no database");
}

static void exec_sql(const char *sql, const char *what)
{
    char *err = NULL;
    if (sqlite3_exec(g_out.db, sql, NULL, NULL, &err) != SQLITE_OK)
        fail("%s: %s", what, err ? err : sqlite3_errmsg(g_out.db));
}

/* Ctrl-C or a kill leaves no temporary file behind: unlink() is async-signal-safe, and the path is
 * set before the handler is installed. */
static void remove_temporary_on_signal(int sig)
{
    if (g_out.tmp_path)
        unlink(g_out.tmp_path);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_temporary_on_signal;
    sigemptyset(&sa.sa_mask);
    const int SIGNALS[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < COUNT_OF(SIGNALS); i++)
        if (sigaction(SIGNALS[i], &sa, NULL) != 0)
            fail("cannot install a signal handler: %s", strerror(errno));
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        fail("out of memory");
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xcalloc(n, 1);
    memcpy(p, s, n);
    return p;
}

/* ======================================================================================= random numbers */

/* xoshiro256** seeded through splitmix64: fast, and the same sequence on every platform. */
struct rng {
    uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* A number in [0, n); the modulo bias is irrelevant for test data.
 * Never draw twice in one expression or argument list: C leaves their order unspecified, and gcc and
 * clang really do differ, which would make the output depend on the compiler. */
static int64_t rng_below(struct rng *r, int64_t n) { return n <= 1 ? 0 : (int64_t)(rng_next(r) % (uint64_t)n); }

static int64_t rng_range(struct rng *r, int64_t lo, int64_t hi) { return lo + rng_below(r, hi - lo + 1); }

static bool rng_one_in(struct rng *r, int64_t n) { return rng_below(r, n) == 0; }

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* ======================================================================================= table writers */

/* One table of the export: created on its first row, like a lazy export, then filled through one
 * prepared INSERT. A row is built with row_begin(), one put_*() per column in the table's column order,
 * and row_end(), which checks that the count matches the CREATE TABLE text. */
struct table_writer {
    const char *table;
    sqlite3_stmt *insert; /* NULL until the first row */
    int ncols;            /* columns of the full 2024.2.3 table = parameters ?1..?ncols */
    int next;             /* the parameter the next put_*() binds */
    int bind_rc;          /* the first bind error of the row being built */
    int64_t rows;
};

#define WRITER(table) {table, NULL, 0, 0, SQLITE_OK, 0}

static bool is_identifier_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* --no-green-context leaves this column out of the tables that have it. */
static bool column_left_out(const struct config *cfg, const char *name, size_t len)
{
    return !cfg->green_context && len == strlen("greenContextId") && strncmp(name, "greenContextId", len) == 0;
}

/* The CREATE TABLE statement of `table` in schema.sql, from "CREATE" to the closing ")" (the ';'
 * is no part of what sqlite_master keeps), as a string for sqlite3_free(). */
static char *schema_create_table(const char *table)
{
    static const char KEYWORDS[] = "CREATE TABLE ";
    size_t name_len = strlen(table);
    for (const char *s = SCHEMA_SQL; (s = strstr(s, KEYWORDS)) != NULL; s++) {
        const char *name = s + strlen(KEYWORDS);
        if ((s != SCHEMA_SQL && s[-1] != '\n') || strncmp(name, table, name_len) != 0 ||
            strncmp(name + name_len, " (\n", 3) != 0)
            continue;
        const char *close = strstr(name, "\n);");
        if (!close)
            break;
        char *sql = sqlite3_mprintf("%.*s", (int)(close + 2 - s), s);
        if (!sql)
            fail("%s: out of memory", table);
        return sql;
    }
    fail("internal error: schema.sql has no CREATE TABLE %s statement ending in a line \");\"", table);
}

static char *finish_str(sqlite3_str *s, const char *what)
{
    if (sqlite3_str_errcode(s) != SQLITE_OK)
        fail("%s: out of memory", what);
    return sqlite3_str_finish(s);
}

/* Creates the table from its 2024.2.3 text (less any column left out) and prepares its INSERT.
 * Parameters are numbered by the column's place in the full table, so the row code binds the same
 * numbers whether or not a column was left out: SQLite accepts binds to numbers a statement skips. */
static void writer_open(const struct config *cfg, struct table_writer *w)
{
    char *table_sql = schema_create_table(w->table);
    sqlite3_str *create = sqlite3_str_new(g_out.db), *cols = sqlite3_str_new(g_out.db),
                *vals = sqlite3_str_new(g_out.db);
    int column = 0, kept = 0;
    for (const char *line = table_sql; *line;) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) + 1 : strlen(line);
        const char *p = line;
        while (*p == ' ')
            p++;
        size_t name_len = 0;
        while (line != table_sql && is_identifier_char(p[name_len]))
            name_len++;
        bool is_column = name_len > 0 && !(name_len == 7 && strncmp(p, "PRIMARY", 7) == 0);
        if (is_column) {
            column++;
            if (column_left_out(cfg, p, name_len)) {
                line += len;
                continue;
            }
            sqlite3_str_appendf(cols, "%s%.*s", kept ? ", " : "", (int)name_len, p);
            sqlite3_str_appendf(vals, "%s?%d", kept ? ", " : "", column);
            kept++;
        }
        sqlite3_str_append(create, line, (int)len);
        line += len;
    }
    char *create_sql = finish_str(create, w->table);
    char *col_list = finish_str(cols, w->table);
    char *val_list = finish_str(vals, w->table);
    char *insert_sql = sqlite3_mprintf("INSERT INTO %s (%s) VALUES (%s)", w->table, col_list, val_list);
    if (!insert_sql)
        fail("%s: out of memory", w->table);
    char what[128];
    snprintf(what, sizeof what, "creating table %s", w->table);
    exec_sql(create_sql, what);
    if (sqlite3_prepare_v3(g_out.db, insert_sql, -1, SQLITE_PREPARE_PERSISTENT, &w->insert, NULL) != SQLITE_OK) {
        snprintf(what, sizeof what, "preparing the INSERT into %s", w->table);
        fail_sqlite(what);
    }
    w->ncols = column;
    sqlite3_free(table_sql);
    sqlite3_free(create_sql);
    sqlite3_free(col_list);
    sqlite3_free(val_list);
    sqlite3_free(insert_sql);
}

static void row_begin(const struct config *cfg, struct table_writer *w)
{
    if (!w->insert)
        writer_open(cfg, w);
    w->next = 1;
    w->bind_rc = SQLITE_OK;
}

static void note_bind(struct table_writer *w, int rc)
{
    if (rc != SQLITE_OK && w->bind_rc == SQLITE_OK)
        w->bind_rc = rc;
    w->next++;
}

static void put_int(struct table_writer *w, int64_t v) { note_bind(w, sqlite3_bind_int64(w->insert, w->next, v)); }

static void put_null(struct table_writer *w) { note_bind(w, sqlite3_bind_null(w->insert, w->next)); }

/* The text must stay valid until row_end(): every caller passes static or long-lived strings. */
static void put_text(struct table_writer *w, const char *s)
{
    if (s)
        note_bind(w, sqlite3_bind_text(w->insert, w->next, s, -1, SQLITE_STATIC));
    else
        put_null(w);
}

/* A nullable column: NULL when `present` is false. */
static void put_int_or_null(struct table_writer *w, bool present, int64_t v)
{
    if (present)
        put_int(w, v);
    else
        put_null(w);
}

static void row_end(struct table_writer *w)
{
    if (w->next - 1 != w->ncols)
        fail("internal error: a row of %s has %d values, the table has %d columns", w->table, w->next - 1, w->ncols);
    if (w->bind_rc != SQLITE_OK)
        fail("%s: binding a row: %s", w->table, sqlite3_errstr(w->bind_rc));
    if (sqlite3_step(w->insert) != SQLITE_DONE) {
        char what[128];
        snprintf(what, sizeof what, "inserting into %s", w->table);
        fail_sqlite(what);
    }
    if (sqlite3_reset(w->insert) != SQLITE_OK)
        fail_sqlite("resetting an INSERT");
    w->rows++;
}

static void writer_close(struct table_writer *w)
{
    if (w->insert && sqlite3_finalize(w->insert) != SQLITE_OK)
        fail_sqlite("finalizing an INSERT");
    w->insert = NULL;
}

/* ======================================================================================= content pools */

/* The fixed strings that real exports put first into StringIds. */
static const char *const RESERVED_STRINGS[] = {"[Unknown]", "[kernel.kallsyms]", "[Max depth]", "[Broken backtraces]",
                                               "[Called from Java]"};

enum duration_model {
    DUR_CONSTANT,  /* always the base duration: exact ties */
    DUR_QUANTIZED, /* base + 32 ns * (0..7): many ties, even-sized groups */
    DUR_JITTER,    /* base -12.5% .. +12.5% at 1 ns */
    DUR_STEPPED,   /* base, and base + 1 every 4th launch of the name: averages end in .25 and .75,
                      which round(x, 1) rounds half up, and medians of even groups end in .5 */
};

/* A family of kernels. Templated families vary their template parameter to make more names; the
 * demangled and mangled forms follow the real pairs of the shared corpus (nsys prints `(int)4`). */
struct kernel_family {
    const char *demangled; /* printf format with one %d for the template parameter, if `param` != 0 */
    const char *short_name;
    const char *mangled; /* the same parameter; extern "C" kernels have the plain name here */
    int param, param_step;
    enum duration_model model;
    int64_t base_ns;
    int regs, static_smem, dynamic_smem, launch_type;
    int grid[3], block[3];
    int alt_grid[3], alt_block[3]; /* a second launch configuration, used 1 time in 4; zeros: none */
};

static const struct kernel_family KERNEL_FAMILIES[] = {
    {"void at::native::vectorized_elementwise_kernel<(int)%d, at::native::FillFunctor<float>, "
     "std::array<char *, (unsigned long)1>>(int, T2, T3)",
     "vectorized_elementwise_kernel",
     "_ZN2at6native29vectorized_elementwise_kernelILi%dENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_", 4, 4,
     DUR_CONSTANT, 2144, 16, 0, 0, 1, {1088, 1, 1}, {128, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"void gemm_tile<(int)%d, (int)64>(const float *, const float *, float *, int, int, int)", "gemm_tile",
     "_Z9gemm_tileILi%dELi64EEvPKfS1_Pfiii", 128, 64, DUR_JITTER, 84000, 128, 32768, 0, 1, {64, 32, 1},
     {256, 1, 1}, {128, 16, 1}, {256, 1, 1}},
    {"saxpy(int, float, const float *, float *)", "saxpy", "_Z5saxpyifPKfPf", 0, 0, DUR_QUANTIZED, 5120, 16, 0, 0,
     1, {4096, 1, 1}, {256, 1, 1}, {8192, 1, 1}, {128, 1, 1}},
    {"void reduce_sum<(int)%d>(const double *, double *, unsigned long)", "reduce_sum", "_Z10reduce_sumILi%dEEvPKdPdm",
     256, 256, DUR_QUANTIZED, 12032, 32, 2048, 0, 2, {264, 1, 1}, {256, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned long)%d>)", "ncclDevKernel_SendRecv",
     "_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm%dEE", 4096, 4096, DUR_JITTER, 41000, 96, 0, 0, 1,
     {4, 1, 1}, {640, 1, 1}, {8, 1, 1}, {640, 1, 1}},
    {"rms_norm_f16_kernel", "rms_norm_f16_kernel", "rms_norm_f16_kernel", 0, 0, DUR_STEPPED, 3200, 24, 0, 0, 1,
     {2048, 1, 1}, {256, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"void at::native::reduce_kernel<(int)%d, (int)1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
     "at::native::sum_functor<float, float, float>::operator ()(at::TensorIterator &)::[lambda(float, float) "
     "(instance 1)]>, unsigned int, float, (int)4>>(T3)",
     "reduce_kernel",
     "_ZN2at6native13reduce_kernelILi%dELi1ENS0_8ReduceOpIfNS0_14func_wrapper_tIfZNS0_11sum_functorIfffEclERNS_"
     "14TensorIteratorEEUlffE_EEjfLi4EEEEEvT1_",
     512, 128, DUR_JITTER, 19500, 40, 0, 16, 1, {108, 1, 1}, {512, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"kernel_assign_clusters(const GPU::VecArray<int, (int)%d> *, const GPU::VecArray<int, (int)32> *, PointsPtr, "
     "int)",
     "kernel_assign_clusters", "_Z22kernel_assign_clustersPKN3GPU8VecArrayIiLi%dEEEPKNS0_IiLi32EEE9PointsPtri", 100000,
     1000, DUR_QUANTIZED, 7040, 30, 0, 0, 1, {391, 1, 1}, {256, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"void FusedBiasAddCUDAKernelHalf<MaskScaleAndElementwiseAddFunctor<__half>>(T1, int, int, const __half *, "
     "const __half *, __half *)",
     "FusedBiasAddCUDAKernelHalf",
     "_Z26FusedBiasAddCUDAKernelHalfI33MaskScaleAndElementwiseAddFunctorI6__halfEEvT_iiPKS1_S5_PS1_", 0, 0,
     DUR_QUANTIZED, 2880, 20, 0, 0, 1, {1024, 1, 1}, {256, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN",
     "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", 0, 0, DUR_JITTER, 152000, 168, 0, 213504, 1, {132, 1, 1},
     {384, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"void clover::par_ranged1d_kernel<build_field(global_variables &)::[lambda(int) (instance 1)]>"
     "(clover::Range1d, T1)",
     "par_ranged1d_kernel", "_ZN6clover19par_ranged1d_kernelIZ11build_fieldR16global_variablesEUliE_EEvNS_7Range1dET_",
     0, 0, DUR_QUANTIZED, 9600, 22, 0, 0, 1, {1954, 1, 1}, {256, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"void at::native::unrolled_elementwise_kernel<at::native::BinaryFunctor<float, float, float, "
     "at::native::AddFunctor<float>>, at::detail::Array<char *, (int)%d>, OffsetCalculator<(int)2, unsigned int, "
     "(bool)0>, OffsetCalculator<(int)1, unsigned int, (bool)0>, at::native::memory::LoadWithoutCast, "
     "at::native::memory::StoreWithoutCast>(int, T1, T2, T3, T4, T5, T6)",
     "unrolled_elementwise_kernel",
     "_ZN2at6native27unrolled_elementwise_kernelINS0_13BinaryFunctorIfffNS0_10AddFunctorIfEEEENS_6detail5ArrayIPcLi%"
     "dEEE16OffsetCalculatorILi2EjLb0EESA_ILi1EjLb0EENS0_6memory15LoadWithoutCastENSD_16StoreWithoutCastEEEviT_T0_"
     "T1_T2_T3_T4_",
     3, 1, DUR_JITTER, 4700, 26, 0, 0, 1, {2048, 1, 1}, {128, 1, 1}, {0, 0, 0}, {0, 0, 0}},
};

/* Memory kinds (ENUM_CUDA_MEM_KIND) and copy kinds (ENUM_CUDA_MEMCPY_OPER). */
enum {
    MEM_PAGEABLE, MEM_PINNED, MEM_DEVICE, MEM_ARRAY, MEM_MANAGED, MEM_DEVICE_STATIC, MEM_MANAGED_STATIC, MEM_UNKNOWN
};
enum {
    COPY_UNKNOWN, COPY_HTOD, COPY_DTOH, COPY_HTOA, COPY_ATOH, COPY_ATOA, COPY_ATOD, COPY_DTOA, COPY_DTOD, COPY_HTOH,
    COPY_PTOP, COPY_UVM_HTOD, COPY_UVM_DTOH, COPY_UVM_DTOD
};

struct memcpy_kind {
    int copy_kind, src_kind, dst_kind;
    const char *api;      /* NULL: a unified-memory migration, which no API call starts */
    bool async;           /* the call returns before the copy; otherwise it waits for it */
    int64_t bytes_per_us; /* bandwidth */
    int weight;           /* share once every kind has appeared */
    int migration_cause;  /* ENUM_CUDA_UNIF_MEM_MIGRATION, migrations only */
};

/* The first 20 copies walk this table in order, so together they show every copyKind and every memory
 * kind on both sides; then the weights take over (mostly HtoD, DtoH, DtoD as in real captures). */
static const struct memcpy_kind MEMCPY_KINDS[] = {
    {COPY_HTOD, MEM_PAGEABLE, MEM_DEVICE, "cudaMemcpy_v3020", false, 12000, 20, 0},
    {COPY_DTOH, MEM_DEVICE, MEM_PAGEABLE, "cudaMemcpy_v3020", false, 12000, 15, 0},
    {COPY_HTOD, MEM_PINNED, MEM_DEVICE, "cudaMemcpyAsync_v3020", true, 25000, 20, 0},
    {COPY_DTOH, MEM_DEVICE, MEM_PINNED, "cudaMemcpyAsync_v3020", true, 25000, 15, 0},
    {COPY_DTOD, MEM_DEVICE, MEM_DEVICE, "cudaMemcpyAsync_v3020", true, 1500000, 10, 0},
    {COPY_UVM_HTOD, MEM_UNKNOWN, MEM_UNKNOWN, NULL, false, 10000, 3, 2},
    {COPY_HTOD, MEM_MANAGED, MEM_DEVICE, "cudaMemcpy_v3020", false, 20000, 2, 0},
    {COPY_HTOD, MEM_PAGEABLE, MEM_DEVICE_STATIC, "cudaMemcpyToSymbol_v3020", false, 12000, 2, 0},
    {COPY_DTOH, MEM_DEVICE_STATIC, MEM_PAGEABLE, "cudaMemcpyFromSymbol_v3020", false, 12000, 2, 0},
    {COPY_HTOA, MEM_PINNED, MEM_ARRAY, "cudaMemcpy2DToArray_v3020", false, 20000, 1, 0},
    {COPY_ATOH, MEM_ARRAY, MEM_PAGEABLE, "cudaMemcpy2DFromArray_v3020", false, 10000, 1, 0},
    {COPY_ATOA, MEM_ARRAY, MEM_ARRAY, "cudaMemcpy3D_v3020", false, 400000, 1, 0},
    {COPY_ATOD, MEM_ARRAY, MEM_DEVICE, "cudaMemcpy3D_v3020", false, 400000, 1, 0},
    {COPY_DTOA, MEM_DEVICE, MEM_ARRAY, "cudaMemcpy2DToArrayAsync_v3020", true, 400000, 1, 0},
    {COPY_HTOH, MEM_PINNED, MEM_PAGEABLE, "cudaMemcpy_v3020", false, 8000, 1, 0},
    {COPY_PTOP, MEM_DEVICE, MEM_DEVICE, "cudaMemcpyPeerAsync_v4000", true, 150000, 2, 0},
    {COPY_DTOD, MEM_DEVICE, MEM_MANAGED_STATIC, "cudaMemcpyToSymbolAsync_v3020", true, 1500000, 1, 0},
    {COPY_UNKNOWN, MEM_MANAGED_STATIC, MEM_MANAGED, "cudaMemcpyAsync_v3020", true, 20000, 1, 0},
    {COPY_UVM_DTOH, MEM_UNKNOWN, MEM_UNKNOWN, NULL, false, 10000, 2, 4},
    {COPY_UVM_DTOD, MEM_UNKNOWN, MEM_UNKNOWN, NULL, false, 10000, 1, 5},
};

/* Sizes repeat so that size summaries get ties and even-sized groups. */
static const int64_t COPY_BYTES[] = {4, 8, 4096, 65536, 1048576, 4194304, 16777216, 100000000};
static const int64_t MIGRATION_BYTES[] = {4096, 8192, 12288, 61440, 65536, 2097152};
static const int64_t MEMSET_BYTES[] = {4, 256, 4096, 1048576, 4194304, 67108864};

struct memset_kind {
    int mem_kind;
    const char *api;
    bool async;
    int64_t bytes_per_us;
    int weight;
};

static const struct memset_kind MEMSET_KINDS[] = {
    {MEM_DEVICE, "cudaMemsetAsync_v3020", true, 1600000, 6},
    {MEM_DEVICE, "cudaMemset_v3020", false, 1600000, 3},
    {MEM_MANAGED, "cudaMemset_v3020", false, 30000, 1},
    {MEM_PINNED, "cudaMemset_v3020", false, 25000, 1},
    {MEM_DEVICE_STATIC, "cudaMemsetAsync_v3020", true, 1600000, 1},
};

enum api_behaviour {
    API_PLAIN,       /* takes lo..hi ns */
    API_SYNC_DEVICE, /* returns when the device is idle */
    API_SYNC_STREAM, /* returns when one stream is idle */
    API_QUERY,       /* lo..hi ns; returns 600 (not ready) half the time */
};

enum { EVENT_CLASS_CUDA_RUNTIME = 0, EVENT_CLASS_CUDA_DRIVER = 1, EVENT_CLASS_OS_RUNTIME = 27,
       EVENT_CLASS_OSRT_START = 31, EVENT_CLASS_CUDA_BACKTRACE = 67 };

struct other_api {
    const char *name;
    int event_class;
    enum api_behaviour behaviour;
    int64_t lo, hi;
    int weight;
};

static const struct other_api OTHER_APIS[] = {
    {"cudaMalloc_v3020", EVENT_CLASS_CUDA_RUNTIME, API_PLAIN, 5000, 45000, 4},
    {"cudaFree_v3020", EVENT_CLASS_CUDA_RUNTIME, API_PLAIN, 3000, 30000, 4},
    {"cudaStreamSynchronize_v3020", EVENT_CLASS_CUDA_RUNTIME, API_SYNC_STREAM, 0, 0, 6},
    {"cudaDeviceSynchronize_v3020", EVENT_CLASS_CUDA_RUNTIME, API_SYNC_DEVICE, 0, 0, 3},
    {"cudaEventRecord_v3020", EVENT_CLASS_CUDA_RUNTIME, API_PLAIN, 2000, 6000, 4},
    {"cudaEventQuery_v3020", EVENT_CLASS_CUDA_RUNTIME, API_QUERY, 2000, 4000, 2},
    {"cudaStreamCreateWithFlags_v5000", EVENT_CLASS_CUDA_RUNTIME, API_PLAIN, 4000, 20000, 1},
    /* two version suffixes: report name cleanup strips only the last one */
    {"cudaGetDeviceProperties_v2_v12000", EVENT_CLASS_CUDA_RUNTIME, API_PLAIN, 10000, 50000, 1},
    {"cudaSetDevice_v3020", EVENT_CLASS_CUDA_RUNTIME, API_PLAIN, 2048, 2048, 1},
    {"cuMemAlloc_v2", EVENT_CLASS_CUDA_DRIVER, API_PLAIN, 5000, 40000, 2},
    {"cuMemFree_v2", EVENT_CLASS_CUDA_DRIVER, API_PLAIN, 3000, 25000, 2},
    {"cuCtxSynchronize", EVENT_CLASS_CUDA_DRIVER, API_SYNC_DEVICE, 0, 0, 1},
    {"cuModuleGetLoadingMode", EVENT_CLASS_CUDA_DRIVER, API_PLAIN, 2000, 3000, 1},
    /* constant: identical durations, so its statistics tie */
    {"cuGetProcAddress_v2", EVENT_CLASS_CUDA_DRIVER, API_PLAIN, 2112, 2112, 2},
};

enum osrt_result { RET_ZERO, RET_BYTES, RET_FD, RET_READY, RET_TIMEOUT };

struct osrt_call {
    const char *name;
    int64_t lo, hi;
    enum osrt_result result;
    int weight;
};

static const struct osrt_call OSRT_CALLS[] = {
    {"pthread_mutex_lock", 1000, 6000, RET_ZERO, 6},
    {"pthread_cond_timedwait", 50000, 2000000, RET_TIMEOUT, 2},
    {"poll", 10000, 1000000, RET_READY, 4},
    {"ioctl", 2000, 60000, RET_ZERO, 6},
    {"read", 2000, 40000, RET_BYTES, 3},
    {"write", 3000, 30000, RET_BYTES, 2},
    {"fopen", 8000, 40000, RET_ZERO, 1},
    {"fclose", 3000, 10000, RET_ZERO, 1},
    {"mmap64", 4000, 20000, RET_ZERO, 1},
    {"munmap", 5000, 30000, RET_ZERO, 1},
    {"open64", 5000, 25000, RET_FD, 1},
    {"sem_timedwait", 100000, 5000000, RET_TIMEOUT, 1},
    {"sched_yield", 1184, 1184, RET_ZERO, 2},
};

/* nsys takes a backtrace of an OS runtime call when it lasts at least this long (its default). */
#define OSRT_BACKTRACE_THRESHOLD_NS 80000

/* NVTX domains created with nvtxDomainCreate (eventType 75); domain 0 is the default domain. */
static const char *const NVTX_DOMAINS[] = {NULL, "MPI", "NCCL"};

struct nvtx_name {
    const char *text;
    int domain;
    bool registered; /* a registered string (textId into StringIds) rather than plain text */
};

/* Push/pop names per nesting level; commas make csv quoting matter. */
static const struct nvtx_name NVTX_LEVEL0[] = {
    {"train_step", 0, false}, {"validate", 0, true}, {"checkpoint, save", 0, false}};
static const struct nvtx_name NVTX_LEVEL1[] = {
    {"forward", 0, true}, {"backward", 0, true}, {"MPI_Allreduce", 1, true}, {"optimizer.step", 0, false}};
static const struct nvtx_name NVTX_LEVEL2[] = {
    {"layer 3, attention", 0, false}, {"ncclAllReduce", 2, true}, {"halo exchange", 0, false},
    {"MPI_Waitall", 1, true}};
static const struct nvtx_name NVTX_LEVEL3[] = {{"matmul", 0, true}, {"softmax", 0, false}};
static const struct nvtx_name NVTX_START_END[] = {
    {"data loader: next batch", 0, false}, {"async prefetch", 0, true}, {"MPI_Irecv", 1, true}};
static const struct nvtx_name NVTX_MARKS[] = {{"checkpoint reached", 0, false}, {"lr decay", 0, true}};

struct nvtx_level {
    const struct nvtx_name *names;
    size_t count;
    int64_t max_cover; /* at most this many host events inside a range of the level */
};

#define NVTX_MAX_DEPTH 4
#define NVTX_MAX_OPEN 3 /* start/end ranges open at once on a thread */

static const struct nvtx_level NVTX_LEVELS[NVTX_MAX_DEPTH] = {
    {NVTX_LEVEL0, COUNT_OF(NVTX_LEVEL0), 64},
    {NVTX_LEVEL1, COUNT_OF(NVTX_LEVEL1), 16},
    {NVTX_LEVEL2, COUNT_OF(NVTX_LEVEL2), 6},
    {NVTX_LEVEL3, COUNT_OF(NVTX_LEVEL3), 2},
};

enum { NVTX_MARK = 34, NVTX_PUSH_POP = 59, NVTX_START_END_RANGE = 60, NVTX_DOMAIN_CREATE = 75 };
#define NVTX_GREEN INT64_C(0xFF76B900)

/* Where a CUDA call came from: the user frame of its backtrace. */
enum caller { CALLER_LAUNCH, CALLER_COPY, CALLER_SETUP, CALLER_COUNT };
static const char *const CALLER_SYMBOLS[CALLER_COUNT] = {"run_iteration(int)", "exchange_halos(Domain &)",
                                                          "init_device(int)"};

#define PROCESS_NAME "stencil_mpi"
#define MODULE_APP "/home/user/stencil/build/" PROCESS_NAME
#define MODULE_CUPTI "/opt/nvidia/nsight-systems/2024.2.3/target-linux-x64/libcupti.so.12.4"
#define MODULE_CUDA "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15"
#define MODULE_CUDART "/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127"
#define MODULE_LIBC "/usr/lib/x86_64-linux-gnu/libc.so.6"

/* Real exports carry VM id 1 in bits 48..55 of every globalTid/globalPid and in TARGET_INFO_GPU.vmId. */
#define VM_ID 1
#define GLOBAL_VM_BITS ((uint64_t)VM_ID << 48)
#define FIRST_PID 1230493

static const char *const GPU_BUS_IDS[] = {"0000:18:00.0", "0000:2A:00.0", "0000:3A:00.0", "0000:5D:00.0",
                                          "0000:9A:00.0", "0000:AB:00.0", "0000:BA:00.0", "0000:DB:00.0"};

/* Threads that nsys and CUDA add to a traced process; named in ThreadNames, no events. */
static const struct {
    const char *name;
    int priority;
} HELPER_THREADS[] = {{"[NSys]", 10}, {"[NSys Comms]", 10}, {"cuda-EvtHandlr", 20}, {"CUPTI worker thread", 10}};

/* ======================================================================================= strings */

/* StringIds: each distinct string once, with ids in first-use order. All interning happens while
 * setting up, so the per-row code only copies ids. */
struct string_pool {
    char **keys;
    int64_t *ids;
    size_t cap; /* a power of two */
    size_t count;
};

static uint64_t hash_string(const char *s)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    return h;
}

static size_t pool_slot(const struct string_pool *p, const char *s)
{
    size_t i = (size_t)hash_string(s) & (p->cap - 1);
    while (p->keys[i] && strcmp(p->keys[i], s) != 0)
        i = (i + 1) & (p->cap - 1);
    return i;
}

static void pool_grow(struct string_pool *p)
{
    struct string_pool bigger = {xcalloc(p->cap * 2, sizeof(char *)), xcalloc(p->cap * 2, sizeof(int64_t)),
                                 p->cap * 2, p->count};
    for (size_t i = 0; i < p->cap; i++) {
        if (!p->keys[i])
            continue;
        size_t j = pool_slot(&bigger, p->keys[i]);
        bigger.keys[j] = p->keys[i];
        bigger.ids[j] = p->ids[i];
    }
    free(p->keys);
    free(p->ids);
    *p = bigger;
}

static void pool_free(struct string_pool *p)
{
    for (size_t i = 0; i < p->cap; i++)
        free(p->keys[i]);
    free(p->keys);
    free(p->ids);
}

/* ======================================================================================= model state */

struct process {
    int64_t pid;
    uint64_t gpid;
    int64_t next_corr;
    int64_t next_grid_id;
    int64_t next_range_id; /* the id nvtxRangeStart returns */
    int64_t start_time;
    int first_context, ncontexts;
    int first_thread;
    bool backtrace;
};

/* A CUDA context: one per process and device it uses. */
struct context {
    int process;
    int device;
    int64_t context_id;
    int64_t first_stream_id; /* the null stream; the process's other streams on the device follow */
};

struct open_range {
    int64_t start;
    int64_t cover_left; /* host events still to come inside the range */
    const struct nvtx_name *name;
    int64_t range_id;  /* start/end ranges only */
    bool cross_thread; /* a start/end range that another thread of the process ends */
};

struct thread {
    uint64_t gtid;
    int process;
    int index_in_process;
    int64_t now;         /* the thread's clock: where its next event can start */
    int64_t events_left; /* host events still to come on this thread */
    int64_t ranges_left; /* NVTX ranges still to open on this thread */
    int64_t body_pos;    /* position in the kernel sequence (struct gen.body) */
    struct open_range stack[NVTX_MAX_DEPTH];
    int depth;
    struct open_range open[NVTX_MAX_OPEN];
    int nopen;
};

struct kernel_name {
    int family;
    int64_t demangled_id, short_id, mangled_id;
    int64_t launches; /* so far, for DUR_STEPPED */
};

/* Ids of one CUDA API: the versioned name of the call and the unversioned one of its backtrace row. */
struct api_ids {
    int64_t name, backtrace_name;
    int event_class;
};

/* Picks from a table: the first pass takes each row in order, so a run with at least as many
 * operations as rows shows every row; then the weights decide. */
struct weighted_table {
    size_t count;
    int64_t cumulative[32];
    int64_t seq; /* picks so far */
};

enum event_kind { EV_KERNEL, EV_MEMCPY, EV_MEMSET, EV_OTHER_API, EV_OSRT, EV_KINDS };

struct gen {
    const struct config *cfg;
    struct rng rng;
    /* Backtrace rows and zero durations draw from streams of their own, so that --backtrace only adds
     * rows: without its rows, a --backtrace export holds exactly the rows of the same run without it. */
    struct rng backtrace_rng, zero_rng;
    struct string_pool strings;

    struct table_writer w_strings, w_thread_names, w_processes, w_meta_export, w_meta_capture, w_session,
        w_gpu_info, w_context_info, w_stream_info, w_analysis, w_runtime, w_cuda_callchains, w_kernel, w_memcpy,
        w_memset, w_nvtx, w_osrt, w_osrt_callchains;

    struct process *procs;
    struct context *contexts;
    int ncontexts;
    struct thread *threads;
    int nthreads;
    int64_t *lane_free; /* when each GPU lane is next free: one per device, or per stream with --overlap */
    int64_t *device_busy_until;

    struct kernel_name *kernel_names;
    int64_t nkernel_names;
    int64_t *body; /* the loop body every thread walks: each kernel once, then the hot ones again */
    int64_t body_len;

    struct api_ids launch_api, memcpy_api[COUNT_OF(MEMCPY_KINDS)], memset_api[COUNT_OF(MEMSET_KINDS)],
        other_api[COUNT_OF(OTHER_APIS)];
    int64_t osrt_name[COUNT_OF(OSRT_CALLS)];
    struct weighted_table memcpy_pick, memset_pick, other_pick, osrt_pick;

    /* callchain frame strings */
    int64_t sym_cupti[2], sym_cuda_internal, sym_caller[CALLER_COUNT], sym_main, sym_libc_main, sym_start,
        sym_start_thread, sym_clone, mod_app, mod_cupti, mod_cuda, mod_cudart, mod_libc;

    int64_t next_cuda_callchain; /* callchainId of the next backtrace row: from 0, as in real exports */
    int64_t next_osrt_callchain; /* from 1: callchainId 0 means none */
    int64_t next_migration_address;
    int64_t gpu_ops_left, zero_durations_left;
    int64_t last_time;
    int64_t events_total;
    struct launch_ranges *lr; /* --launch-ranges; NULL without it */
};

/* Returns the StringIds id of `s`, adding it on first use. */
static int64_t intern(struct gen *g, const char *s)
{
    struct string_pool *p = &g->strings;
    if ((p->count + 1) * 2 > p->cap)
        pool_grow(p);
    size_t slot = pool_slot(p, s);
    if (p->keys[slot])
        return p->ids[slot];
    int64_t id = (int64_t)p->count++;
    p->keys[slot] = xstrdup(s);
    p->ids[slot] = id;
    row_begin(g->cfg, &g->w_strings);
    put_int(&g->w_strings, id);
    put_text(&g->w_strings, p->keys[slot]);
    row_end(&g->w_strings);
    return id;
}

/* The name that a CUDA backtrace row carries: the call's name less its last `_v<digits>` suffix. */
static int64_t intern_unversioned(struct gen *g, const char *name)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", name);
    char *v = strrchr(buf, '_');
    if (v && v[1] == 'v' && v[2]) {
        bool digits = true;
        for (const char *d = v + 2; *d; d++)
            digits = digits && *d >= '0' && *d <= '9';
        if (digits)
            *v = '\0';
    }
    return intern(g, buf);
}

static struct api_ids intern_api(struct gen *g, const char *name, int event_class)
{
    struct api_ids ids = {.event_class = event_class};
    ids.name = intern(g, name);
    ids.backtrace_name = intern_unversioned(g, name);
    return ids;
}

static void note_time(struct gen *g, int64_t t)
{
    if (t > g->last_time)
        g->last_time = t;
}

/* ======================================================================================= picking */

static void weighted_init(struct weighted_table *t, const int *weights, size_t count)
{
    if (count > COUNT_OF(t->cumulative))
        fail("internal error: a weighted table has more than %zu rows", COUNT_OF(t->cumulative));
    t->count = count;
    int64_t sum = 0;
    for (size_t i = 0; i < count; i++)
        t->cumulative[i] = sum += weights[i];
}

static size_t weighted_pick(struct gen *g, struct weighted_table *t)
{
    if (t->seq < (int64_t)t->count)
        return (size_t)t->seq++;
    t->seq++;
    int64_t x = rng_below(&g->rng, t->cumulative[t->count - 1]);
    size_t i = 0;
    while (t->cumulative[i] <= x)
        i++;
    return i;
}

/* Draws one of n kinds with probability proportional to what is left of each, so every count is
 * met exactly and the kinds are mixed all along the run. */
static int pick_by_remaining(struct rng *r, int64_t *left, int n)
{
    int64_t total = 0;
    for (int i = 0; i < n; i++)
        total += left[i];
    int64_t x = rng_below(r, total);
    for (int i = 0; i < n; i++) {
        if (x < left[i]) {
            left[i]--;
            return i;
        }
        x -= left[i];
    }
    return -1;
}

static int64_t pick_int(struct gen *g, const int64_t *values, size_t count)
{
    return values[rng_below(&g->rng, (int64_t)count)];
}

/* ======================================================================================= timing */

/* Between two host events: mostly a few µs, sometimes a stretch of CPU work. */
static int64_t host_gap(struct gen *g)
{
    if (rng_one_in(&g->rng, 64))
        return rng_range(&g->rng, 50000, 400000);
    return rng_range(&g->rng, 1000, 15000);
}

static int64_t launch_call_duration(struct gen *g)
{
    if (rng_one_in(&g->rng, 40))
        return rng_range(&g->rng, 10000, 50000);
    return rng_range(&g->rng, 2500, 8000);
}

static int64_t kernel_duration(struct gen *g, struct kernel_name *kn, bool cold)
{
    const struct kernel_family *f = &KERNEL_FAMILIES[kn->family];
    int64_t d = f->base_ns, launch = kn->launches++;
    switch (f->model) {
    case DUR_CONSTANT: return d;
    case DUR_STEPPED: return d + (launch % 4 == 3);
    case DUR_QUANTIZED: d += 32 * rng_below(&g->rng, 8); break;
    case DUR_JITTER:
    default: d += rng_below(&g->rng, d / 4 + 1) - d / 8; break;
    }
    return cold ? 3 * d + 10000 : d; /* an outlier: the first big launch pays for module loading */
}

static int64_t transfer_duration(int64_t bytes, int64_t bytes_per_us)
{
    return 1400 + bytes * 1000 / bytes_per_us;
}

/* Every GPU operation passes its natural duration through here; --zero-durations turns that many
 * of them, spread over the run, into zero-length ones. */
static int64_t gpu_op_duration(struct gen *g, int64_t natural)
{
    bool zero = g->zero_durations_left > 0 && rng_below(&g->zero_rng, g->gpu_ops_left) < g->zero_durations_left;
    g->gpu_ops_left--;
    if (zero) {
        g->zero_durations_left--;
        return 0;
    }
    return natural;
}

/* ======================================================================================= GPU lanes */

/* A lane runs one GPU operation at a time: the device by default, a stream with --overlap. */
static int64_t *lane_of(struct gen *g, int ctx, int stream)
{
    if (g->cfg->overlap)
        return &g->lane_free[(int64_t)ctx * g->cfg->streams + stream];
    return &g->lane_free[g->contexts[ctx].device];
}

static void occupy_lane(struct gen *g, int ctx, int stream, int64_t end)
{
    int64_t *lane = lane_of(g, ctx, stream);
    *lane = max64(*lane, end);
    int64_t *busy = &g->device_busy_until[g->contexts[ctx].device];
    *busy = max64(*busy, end);
    note_time(g, end);
}

struct gpu_span {
    int64_t api_start, api_end, gpu_start, gpu_end;
};

/* The host never runs more than a bounded backlog ahead of its GPU lane (a real launch queue fills
 * up, and the CPU has work of its own); without this the queue would grow without end. */
static int64_t throttled_start(struct gen *g, int64_t now, int64_t lane_free)
{
    int64_t backlog = rng_range(&g->rng, 20000, 200000);
    return max64(now, lane_free - backlog);
}

/* An asynchronous call: the API returns, the GPU runs the work when the lane is free. With
 * `may_start_early`, 1 launch in 16 starts on the GPU before its API call returns (a negative queue
 * time, which cuda_kern_exec_* show as NULL). */
static struct gpu_span schedule_async(struct gen *g, struct thread *th, int ctx, int stream, int64_t api_dur,
                                      int64_t gpu_dur, bool may_start_early)
{
    int64_t lane = *lane_of(g, ctx, stream);
    struct gpu_span s;
    s.api_start = throttled_start(g, th->now, lane);
    if (may_start_early && rng_one_in(&g->rng, 16)) {
        int64_t early = rng_range(&g->rng, 300, api_dur / 2);
        s.api_start = max64(s.api_start, lane + early - api_dur); /* the host waits until the lane is free */
        s.api_end = s.api_start + api_dur;
        s.gpu_start = s.api_end - early;
    } else {
        s.api_end = s.api_start + api_dur;
        int64_t queued = s.api_end + rng_range(&g->rng, 1500, 6000);
        s.gpu_start = max64(queued, lane + rng_range(&g->rng, 800, 2000));
    }
    s.gpu_end = s.gpu_start + gpu_dur;
    occupy_lane(g, ctx, stream, s.gpu_end);
    return s;
}

/* A synchronous call on the null stream: the GPU work waits for everything queued on the device and
 * the call returns only after it. */
static struct gpu_span schedule_sync(struct gen *g, struct thread *th, int ctx, int64_t gpu_dur)
{
    struct gpu_span s;
    s.api_start = th->now;
    int64_t submitted = s.api_start + rng_range(&g->rng, 1500, 3000);
    s.gpu_start = max64(submitted, g->device_busy_until[g->contexts[ctx].device] + rng_range(&g->rng, 500, 1500));
    s.gpu_end = s.gpu_start + gpu_dur;
    s.api_end = s.gpu_end + rng_range(&g->rng, 800, 2500);
    occupy_lane(g, ctx, 0, s.gpu_end);
    return s;
}

/* ======================================================================================= rows */

static void write_runtime_row(struct gen *g, int64_t start, int64_t end, int event_class, uint64_t gtid,
                              int64_t corr, int64_t name_id, int64_t ret, bool has_callchain, int64_t callchain)
{
    struct table_writer *w = &g->w_runtime;
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, event_class);
    put_int(w, (int64_t)gtid);
    put_int(w, corr);
    put_int(w, name_id);
    put_int(w, ret);
    put_int_or_null(w, has_callchain, callchain);
    row_end(w);
    note_time(g, end);
}

static void write_cuda_frame(struct gen *g, int64_t id, int64_t symbol, int64_t module, bool unresolved, int64_t ip,
                             int depth)
{
    struct table_writer *w = &g->w_cuda_callchains;
    row_begin(g->cfg, w);
    put_int(w, id);
    put_int(w, symbol);
    put_int(w, module);
    put_int_or_null(w, unresolved, 1);
    put_int(w, ip);
    put_int(w, depth);
    row_end(w);
}

/* The stack of one backtrace row, innermost first: CUPTI's hook, the driver, the API, the user code. */
static void write_cuda_callchain(struct gen *g, int64_t id, const struct api_ids *api, enum caller caller)
{
    bool runtime = api->event_class == EVENT_CLASS_CUDA_RUNTIME;
    int depth = 0;
    write_cuda_frame(g, id, g->sym_cupti[0], g->mod_cupti, true, INT64_C(0x7f3a2c4e0588), depth++);
    write_cuda_frame(g, id, g->sym_cupti[1], g->mod_cupti, true, INT64_C(0x7f3a2c4e283c), depth++);
    write_cuda_frame(g, id, g->sym_cuda_internal, g->mod_cuda, true, INT64_C(0x7f3a3b8226b6), depth++);
    write_cuda_frame(g, id, api->backtrace_name, runtime ? g->mod_cudart : g->mod_cuda, false,
                     INT64_C(0x7f3a3c1a4000) + 16 * (api->name % 256), depth++);
    write_cuda_frame(g, id, g->sym_caller[caller], g->mod_app, false,
                     INT64_C(0x401a00) + 0x80 * caller + 4 * rng_below(&g->backtrace_rng, 16), depth++);
    write_cuda_frame(g, id, g->sym_main, g->mod_app, false, INT64_C(0x4012f0), depth++);
    write_cuda_frame(g, id, g->sym_libc_main, g->mod_libc, false, INT64_C(0x7f3a3a229d90), depth++);
    write_cuda_frame(g, id, g->sym_start, g->mod_app, false, INT64_C(0x401105), depth);
}

/* One CUDA API call. In a process with backtraces it is preceded by its backtrace row, as in the real
 * export: same thread and correlationId, the unversioned name, callchainId set, a few hundred ns
 * earlier and a little later. CUDA_CALLCHAINS ids are callchainId + 1 there, and here too. */
static void write_api_call(struct gen *g, const struct thread *th, const struct api_ids *api, int64_t start,
                           int64_t end, int64_t corr, int64_t ret, enum caller caller)
{
    if (g->procs[th->process].backtrace) {
        int64_t callchain = g->next_cuda_callchain++;
        int64_t bt_start = start - rng_range(&g->backtrace_rng, 150, 450);
        int64_t bt_end = end + rng_range(&g->backtrace_rng, 80, 300);
        write_runtime_row(g, bt_start, bt_end, EVENT_CLASS_CUDA_BACKTRACE, th->gtid, corr, api->backtrace_name, ret,
                          true, callchain);
        write_cuda_callchain(g, callchain + 1, api, caller);
    }
    write_runtime_row(g, start, end, api->event_class, th->gtid, corr, api->name, ret, false, 0);
}

static int64_t next_correlation_id(struct gen *g, struct process *p)
{
    int64_t id = p->next_corr;
    /* untraced driver calls also take ids */
    p->next_corr += (rng_one_in(&g->rng, 8) ? 2 : 1) * g->cfg->corr_stride;
    return id;
}

static int64_t stream_id(const struct gen *g, int ctx, int stream)
{
    return g->contexts[ctx].first_stream_id + stream;
}

/* The GPU-side columns that kernel, memcpy and memset rows start with. */
static void put_gpu_prefix(struct gen *g, struct table_writer *w, const struct gpu_span *s, int ctx, int stream,
                           int64_t corr)
{
    const struct context *c = &g->contexts[ctx];
    put_int(w, s->gpu_start);
    put_int(w, s->gpu_end);
    put_int(w, c->device);
    put_int(w, c->context_id);
    put_null(w); /* greenContextId: NULL in 2024-era exports */
    put_int(w, stream_id(g, ctx, stream));
    put_int(w, corr);
    put_int(w, (int64_t)g->procs[c->process].gpid);
}

static int64_t shared_memory_executed(int64_t smem)
{
    static const int64_t CARVEOUTS[] = {16384, 32768, 65536, 102400, 167936, 233472};
    for (size_t i = 0; i < COUNT_OF(CARVEOUTS); i++)
        if (smem <= CARVEOUTS[i])
            return CARVEOUTS[i];
    return CARVEOUTS[COUNT_OF(CARVEOUTS) - 1];
}

static void write_kernel_row(struct gen *g, const struct gpu_span *s, int ctx, int stream, int64_t corr,
                             const struct kernel_name *kn)
{
    const struct kernel_family *f = &KERNEL_FAMILIES[kn->family];
    bool alt = f->alt_grid[0] && rng_one_in(&g->rng, 4);
    const int *grid = alt ? f->alt_grid : f->grid, *block = alt ? f->alt_block : f->block;
    struct process *p = &g->procs[g->contexts[ctx].process];
    struct table_writer *w = &g->w_kernel;
    row_begin(g->cfg, w);
    put_gpu_prefix(g, w, s, ctx, stream, corr);
    put_int(w, kn->demangled_id);
    put_int(w, kn->short_id);
    put_int(w, kn->mangled_id);
    put_int(w, f->launch_type);
    put_int(w, 1); /* cacheConfig: prefer shared, as most real rows */
    put_int(w, f->regs);
    for (int i = 0; i < 3; i++)
        put_int(w, grid[i]);
    for (int i = 0; i < 3; i++)
        put_int(w, block[i]);
    put_int(w, f->static_smem);
    put_int(w, f->dynamic_smem);
    put_int(w, 0);          /* localMemoryPerThread */
    put_int(w, 136314880);  /* localMemoryTotal */
    put_int(w, p->next_grid_id++);
    put_int(w, shared_memory_executed(f->static_smem + f->dynamic_smem));
    put_null(w); /* graphNodeId */
    put_int(w, 0); /* sharedMemoryLimitConfig */
    row_end(w);
}

/* ======================================================================================= host events */

static int pick_context(struct gen *g, const struct process *p)
{
    return p->first_context + (int)rng_below(&g->rng, p->ncontexts);
}

static void emit_kernel_launch(struct gen *g, struct thread *th)
{
    struct process *p = &g->procs[th->process];
    int ctx = pick_context(g, p);
    int stream = (int)rng_below(&g->rng, g->cfg->streams);
    bool cold = th->body_pos == 1 && th->index_in_process == 0; /* main thread, its second launch */
    struct kernel_name *kn = &g->kernel_names[g->body[th->body_pos++ % g->body_len]];
    int64_t api_dur = launch_call_duration(g);
    int64_t gpu_dur = gpu_op_duration(g, kernel_duration(g, kn, cold));
    struct gpu_span s = schedule_async(g, th, ctx, stream, api_dur, gpu_dur, true);
    int64_t corr = next_correlation_id(g, p);
    write_api_call(g, th, &g->launch_api, s.api_start, s.api_end, corr, 0, CALLER_LAUNCH);
    write_kernel_row(g, &s, ctx, stream, corr, kn);
    th->now = s.api_end;
}

/* A unified-memory migration: page faults move data while kernels run; no API call, no lane. */
static void emit_migration(struct gen *g, struct thread *th, const struct memcpy_kind *k)
{
    struct process *p = &g->procs[th->process];
    const struct context *c = &g->contexts[pick_context(g, p)];
    int64_t bytes = pick_int(g, MIGRATION_BYTES, COUNT_OF(MIGRATION_BYTES));
    int64_t start = th->now + rng_range(&g->rng, 500, 5000);
    int64_t end = start + gpu_op_duration(g, transfer_duration(bytes, k->bytes_per_us));
    struct table_writer *w = &g->w_memcpy;
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, c->device);
    put_int(w, 0); /* contextId */
    put_null(w);   /* greenContextId */
    put_int(w, 0); /* streamId */
    put_int(w, 0); /* correlationId */
    put_int(w, (int64_t)p->gpid);
    put_int(w, bytes);
    put_int(w, k->copy_kind);
    put_null(w); /* deprecatedSrcId */
    put_int(w, k->src_kind);
    put_int(w, k->dst_kind);
    for (int i = 0; i < 4; i++)
        put_null(w); /* src/dst device and context */
    put_int(w, k->migration_cause);
    put_null(w); /* graphNodeId */
    put_int(w, g->next_migration_address);
    row_end(w);
    g->next_migration_address += (bytes + 4095) / 4096 * 4096;
    note_time(g, end);
}

static void write_memcpy_row(struct gen *g, const struct gpu_span *s, int ctx, int stream, int64_t corr,
                             int64_t bytes, const struct memcpy_kind *k)
{
    const struct context *c = &g->contexts[ctx];
    bool peer = k->copy_kind == COPY_PTOP;
    struct table_writer *w = &g->w_memcpy;
    row_begin(g->cfg, w);
    put_gpu_prefix(g, w, s, ctx, stream, corr);
    put_int(w, bytes);
    put_int(w, k->copy_kind);
    put_null(w); /* deprecatedSrcId */
    put_int(w, k->src_kind);
    put_int(w, k->dst_kind);
    put_int_or_null(w, peer, c->device);                                  /* srcDeviceId */
    put_int_or_null(w, peer, c->context_id);                              /* srcContextId */
    put_int_or_null(w, peer, (c->device + 1) % g->cfg->devices);          /* dstDeviceId */
    put_int_or_null(w, peer, c->context_id);                              /* dstContextId */
    put_null(w); /* migrationCause */
    put_null(w); /* graphNodeId */
    put_null(w); /* virtualAddress */
    row_end(w);
}

static void emit_memcpy(struct gen *g, struct thread *th)
{
    size_t i = weighted_pick(g, &g->memcpy_pick);
    const struct memcpy_kind *k = &MEMCPY_KINDS[i];
    if (!k->api) {
        emit_migration(g, th, k);
        return;
    }
    struct process *p = &g->procs[th->process];
    int ctx = pick_context(g, p);
    int stream = k->async ? (int)rng_below(&g->rng, g->cfg->streams) : 0;
    int64_t bytes = pick_int(g, COPY_BYTES, COUNT_OF(COPY_BYTES));
    int64_t gpu_dur = gpu_op_duration(g, transfer_duration(bytes, k->bytes_per_us));
    struct gpu_span s = k->async ? schedule_async(g, th, ctx, stream, rng_range(&g->rng, 3000, 10000), gpu_dur, false)
                                 : schedule_sync(g, th, ctx, gpu_dur);
    int64_t corr = next_correlation_id(g, p);
    write_api_call(g, th, &g->memcpy_api[i], s.api_start, s.api_end, corr, 0, CALLER_COPY);
    write_memcpy_row(g, &s, ctx, stream, corr, bytes, k);
    th->now = s.api_end;
}

static void emit_memset(struct gen *g, struct thread *th)
{
    size_t i = weighted_pick(g, &g->memset_pick);
    const struct memset_kind *k = &MEMSET_KINDS[i];
    struct process *p = &g->procs[th->process];
    int ctx = pick_context(g, p);
    int stream = k->async ? (int)rng_below(&g->rng, g->cfg->streams) : 0;
    int64_t bytes = pick_int(g, MEMSET_BYTES, COUNT_OF(MEMSET_BYTES));
    int64_t gpu_dur = gpu_op_duration(g, transfer_duration(bytes, k->bytes_per_us));
    struct gpu_span s = k->async ? schedule_async(g, th, ctx, stream, rng_range(&g->rng, 2500, 7000), gpu_dur, false)
                                 : schedule_sync(g, th, ctx, gpu_dur);
    int64_t corr = next_correlation_id(g, p);
    write_api_call(g, th, &g->memset_api[i], s.api_start, s.api_end, corr, 0, CALLER_COPY);
    struct table_writer *w = &g->w_memset;
    row_begin(g->cfg, w);
    put_gpu_prefix(g, w, &s, ctx, stream, corr);
    put_int(w, rng_one_in(&g->rng, 4) ? 255 : 0); /* value */
    put_int(w, bytes);
    put_null(w); /* graphNodeId */
    put_int(w, k->mem_kind);
    row_end(w);
    th->now = s.api_end;
}

static void emit_other_api(struct gen *g, struct thread *th)
{
    size_t i = weighted_pick(g, &g->other_pick);
    const struct other_api *a = &OTHER_APIS[i];
    struct process *p = &g->procs[th->process];
    int ctx = pick_context(g, p);
    int64_t start = th->now, end, ret = 0, shortest, idle;
    switch (a->behaviour) {
    case API_SYNC_DEVICE:
        shortest = start + rng_range(&g->rng, 2000, 4000);
        idle = g->device_busy_until[g->contexts[ctx].device];
        end = max64(shortest, idle + rng_range(&g->rng, 1000, 3000));
        break;
    case API_SYNC_STREAM:
        shortest = start + rng_range(&g->rng, 2000, 4000);
        idle = *lane_of(g, ctx, (int)rng_below(&g->rng, g->cfg->streams));
        end = max64(shortest, idle + rng_range(&g->rng, 1000, 3000));
        break;
    case API_QUERY:
        end = start + rng_range(&g->rng, a->lo, a->hi);
        ret = rng_one_in(&g->rng, 2) ? 600 : 0; /* cudaErrorNotReady */
        break;
    case API_PLAIN:
    default: end = start + rng_range(&g->rng, a->lo, a->hi); break;
    }
    write_api_call(g, th, &g->other_api[i], start, end, next_correlation_id(g, p), ret, CALLER_SETUP);
    th->now = end;
}

static void write_osrt_frame(struct gen *g, int64_t id, int64_t symbol, int64_t module, bool unresolved, int64_t ip,
                             int depth)
{
    struct table_writer *w = &g->w_osrt_callchains;
    row_begin(g->cfg, w);
    put_int(w, id);
    put_int(w, symbol);
    put_int(w, module);
    put_null(w); /* kernelMode */
    put_null(w); /* thumbCode */
    put_int_or_null(w, unresolved, 1);
    put_null(w); /* specialEntry */
    put_int(w, ip);
    put_null(w); /* unwindMethod */
    put_int(w, depth);
    row_end(w);
}

static int64_t write_osrt_callchain(struct gen *g, int64_t name_id)
{
    int64_t id = g->next_osrt_callchain++;
    write_osrt_frame(g, id, name_id, g->mod_libc, false, INT64_C(0x7f3a3a31e9a0) + 16 * (name_id % 64), 0);
    write_osrt_frame(g, id, g->sym_cuda_internal, g->mod_cuda, true, INT64_C(0x7f3a3b83c1a4), 1);
    write_osrt_frame(g, id, g->sym_start_thread, g->mod_libc, false, INT64_C(0x7f3a3a294ac3), 2);
    write_osrt_frame(g, id, g->sym_clone, g->mod_libc, false, INT64_C(0x7f3a3a326850), 3);
    return id;
}

static int64_t osrt_result(struct gen *g, enum osrt_result r)
{
    switch (r) {
    case RET_BYTES: return pick_int(g, (const int64_t[]){64, 4096, 4096, 65536}, 4);
    case RET_FD: return rng_range(&g->rng, 5, 40);
    case RET_READY: return rng_below(&g->rng, 2);
    case RET_TIMEOUT: return rng_one_in(&g->rng, 3) ? 110 : 0; /* ETIMEDOUT */
    case RET_ZERO:
    default: return 0;
    }
}

static void emit_osrt(struct gen *g, struct thread *th)
{
    size_t i = weighted_pick(g, &g->osrt_pick);
    const struct osrt_call *c = &OSRT_CALLS[i];
    /* skewed towards short calls: the product of two uniform draws */
    int64_t span = c->hi - c->lo;
    int64_t u = rng_below(&g->rng, span + 1);
    int64_t v = rng_below(&g->rng, span + 1);
    int64_t dur = c->lo + (span ? u * v / span : 0);
    int64_t callchain = dur >= OSRT_BACKTRACE_THRESHOLD_NS ? write_osrt_callchain(g, g->osrt_name[i]) : 0;
    struct table_writer *w = &g->w_osrt;
    row_begin(g->cfg, w);
    put_int(w, th->now);
    put_int(w, th->now + dur);
    put_int(w, EVENT_CLASS_OS_RUNTIME);
    put_int(w, (int64_t)th->gtid);
    put_int(w, g->osrt_name[i]);
    put_int(w, osrt_result(g, c->result));
    put_int(w, 0); /* nestingLevel */
    put_int(w, callchain);
    row_end(w);
    th->now += dur;
    note_time(g, th->now);
}

/* ======================================================================================= NVTX */

/* One NVTX_EVENTS row; the has_* flags say which nullable columns have a value. */
struct nvtx_row {
    int event_type;
    int64_t start;
    bool has_end;
    int64_t end;
    const struct nvtx_name *name; /* text or registered string, and domain */
    uint64_t gtid;
    bool has_end_gtid; /* a start/end range ended by another thread */
    uint64_t end_gtid;
    bool has_range_id; /* start/end ranges */
    int64_t range_id;
    bool colored;
};

static void write_nvtx_row(struct gen *g, const struct nvtx_row *r)
{
    const struct nvtx_name *name = r->name;
    struct table_writer *w = &g->w_nvtx;
    row_begin(g->cfg, w);
    put_int(w, r->start);
    put_int_or_null(w, r->has_end, r->end);
    put_int(w, r->event_type);
    put_int_or_null(w, r->has_range_id, r->range_id);
    put_int_or_null(w, r->event_type == NVTX_START_END_RANGE, 1); /* category */
    put_int_or_null(w, r->colored, NVTX_GREEN);
    put_text(w, name->registered ? NULL : name->text);
    put_int(w, (int64_t)r->gtid);
    put_int_or_null(w, r->has_end_gtid, (int64_t)r->end_gtid);
    put_int_or_null(w, name->registered, name->registered ? intern(g, name->text) : 0);
    put_int(w, name->domain);
    for (int i = 0; i < 8; i++)
        put_null(w); /* payload union and JSON */
    row_end(w);
    note_time(g, r->has_end ? r->end : r->start);
}

static void close_push_pop(struct gen *g, struct thread *th)
{
    const struct open_range *r = &th->stack[--th->depth];
    th->now += rng_range(&g->rng, 300, 600); /* nvtxRangePop */
    write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_PUSH_POP, .start = r->start, .has_end = true,
                                         .end = th->now, .name = r->name, .gtid = th->gtid,
                                         .colored = th->depth == 0});
}

static void close_start_end(struct gen *g, struct thread *th, int i)
{
    const struct open_range *r = &th->open[i];
    const struct process *p = &g->procs[th->process];
    uint64_t end_gtid = g->threads[p->first_thread + (th->index_in_process + 1) % g->cfg->threads].gtid;
    th->now += rng_range(&g->rng, 300, 600); /* nvtxRangeEnd */
    write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_START_END_RANGE, .start = r->start, .has_end = true,
                                         .end = th->now, .name = r->name, .gtid = th->gtid,
                                         .has_end_gtid = r->cross_thread, .end_gtid = end_gtid, .has_range_id = true,
                                         .range_id = r->range_id});
    th->open[i] = th->open[--th->nopen];
}

static const struct nvtx_name *pick_nvtx_name(struct gen *g, const struct nvtx_name *names, size_t count)
{
    return &names[rng_below(&g->rng, (int64_t)count)];
}

/* Opens one range before the current event: start/end 1 time in 4, otherwise push/pop one level
 * deeper. A push/pop range covers no more events than its parent has left, so ranges close LIFO. */
static bool open_range(struct gen *g, struct thread *th)
{
    bool start_end = th->nopen < NVTX_MAX_OPEN && (th->depth == NVTX_MAX_DEPTH || rng_one_in(&g->rng, 4));
    if (!start_end && th->depth == NVTX_MAX_DEPTH)
        return false;
    if (rng_one_in(&g->rng, 8)) {
        write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_MARK, .start = th->now, .gtid = th->gtid,
                                             .name = pick_nvtx_name(g, NVTX_MARKS, COUNT_OF(NVTX_MARKS))});
        th->now += rng_range(&g->rng, 300, 600);
    }
    struct open_range r = {.start = th->now};
    if (start_end) {
        r.cover_left = 1 + rng_below(&g->rng, min64(th->events_left, 32));
        r.name = pick_nvtx_name(g, NVTX_START_END, COUNT_OF(NVTX_START_END));
        r.range_id = g->procs[th->process].next_range_id++;
        r.cross_thread = g->cfg->threads > 1 && rng_one_in(&g->rng, 4);
        th->open[th->nopen++] = r;
    } else {
        const struct nvtx_level *level = &NVTX_LEVELS[th->depth];
        int64_t room = th->depth ? th->stack[th->depth - 1].cover_left : th->events_left;
        r.cover_left = 1 + rng_below(&g->rng, min64(room, level->max_cover));
        r.name = pick_nvtx_name(g, level->names, level->count);
        th->stack[th->depth++] = r;
    }
    th->ranges_left--;
    /* the push itself; longer than a backtrace row's lead, so that row stays inside the range */
    th->now += rng_range(&g->rng, 500, 900);
    return true;
}

/* Spreads the thread's ranges over its events: ranges_left / events_left of them here, on average. */
static void nvtx_before_event(struct gen *g, struct thread *th)
{
    if (th->ranges_left == 0)
        return;
    int64_t want = th->ranges_left / th->events_left;
    if (rng_below(&g->rng, th->events_left) < th->ranges_left % th->events_left)
        want++;
    for (; want > 0; want--)
        if (!open_range(g, th))
            break;
}

static void nvtx_after_event(struct gen *g, struct thread *th)
{
    for (int i = 0; i < th->depth; i++)
        th->stack[i].cover_left--;
    for (int i = 0; i < th->nopen; i++)
        th->open[i].cover_left--;
    while (th->depth > 0 && th->stack[th->depth - 1].cover_left <= 0)
        close_push_pop(g, th);
    for (int i = th->nopen - 1; i >= 0; i--)
        if (th->open[i].cover_left <= 0)
            close_start_end(g, th, i);
}

/* Ranges the events could not hold: nested push/pop chains around CPU work, after the last event. */
static void nvtx_finish_thread(struct gen *g, struct thread *th)
{
    while (th->depth > 0)
        close_push_pop(g, th);
    while (th->nopen > 0)
        close_start_end(g, th, th->nopen - 1);
    while (th->ranges_left > 0) {
        int chain = (int)min64(th->ranges_left, 3);
        int64_t starts[3];
        const struct nvtx_name *names[3];
        for (int level = 0; level < chain; level++) {
            starts[level] = th->now;
            names[level] = pick_nvtx_name(g, NVTX_LEVELS[level].names, NVTX_LEVELS[level].count);
            th->now += rng_range(&g->rng, 500, 900);
        }
        th->now += rng_range(&g->rng, 2000, 20000);
        for (int level = chain - 1; level >= 0; level--) {
            th->now += rng_range(&g->rng, 300, 600);
            write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_PUSH_POP, .start = starts[level], .has_end = true,
                                                 .end = th->now, .name = names[level], .gtid = th->gtid,
                                                 .colored = level == 0});
        }
        th->ranges_left -= chain;
        th->now += host_gap(g);
    }
}

/* ======================================================================================= unified memory, OpenMP, OpenACC, WDDM */

/* --um, --openmp, --openacc and --wddm add the rows of the unified memory, OpenMP, OpenACC and WDDM
 * reports after the host events, from a random stream of their own: an export made without them is
 * byte for byte what it was before these options existed. */

/* weighted_pick() from this block's own random stream. */
static size_t weighted_pick_rng(struct rng *r, struct weighted_table *t)
{
    if (t->seq < (int64_t)t->count)
        return (size_t)t->seq++;
    t->seq++;
    int64_t v = rng_below(r, t->cumulative[t->count - 1]);
    size_t i = 0;
    while (t->cumulative[i] <= v)
        i++;
    return i;
}

struct extra_gen {
    struct gen *g;
    struct rng rng;
    int64_t now; /* these rows' clock */
    struct table_writer w_cpu_faults, w_gpu_faults, w_omp[5], w_acc[3], w_wddm_contexts, w_queue_start,
        w_queue_stop, w_dma_start, w_dma_stop;
};

/* A thread of the run, in turn; its process. */
static const struct thread *extra_thread(const struct extra_gen *x, int64_t i)
{
    return &x->g->threads[i % x->g->nthreads];
}

static const struct process *extra_process(const struct extra_gen *x, int64_t i)
{
    return &x->g->procs[extra_thread(x, i)->process];
}

static int64_t extra_tick(struct extra_gen *x, int64_t lo, int64_t hi)
{
    x->now += rng_range(&x->rng, lo, hi);
    note_time(x->g, x->now);
    return x->now;
}

/* ---- unified memory: migrations and page faults over a few pages per process ---- */

enum um_event { UM_HTOD, UM_DTOH, UM_CPU_FAULT, UM_GPU_FAULT, UM_EVENTS };
static const int UM_WEIGHTS[UM_EVENTS] = {35, 20, 25, 20};
#define UM_PAGE INT64_C(0x10000)
static const int64_t UM_CPU_PCS[] = {INT64_C(0x55d4c3a1b2c0), INT64_C(0x55d4c3a1b31c), INT64_C(0x55d4c3a1c004),
                                     INT64_C(0x7f1e22a4f8d0)};

/* A page of the process: few enough that addresses repeat across migrations and faults. */
static int64_t um_page(struct extra_gen *x, const struct process *p, int64_t pages)
{
    int64_t base = INT64_C(0x7f3a00000000) + (int64_t)(p - x->g->procs) * INT64_C(0x40000000);
    return base + rng_below(&x->rng, pages) * UM_PAGE;
}

static void um_migration(struct extra_gen *x, const struct process *p, int64_t addr, bool to_device)
{
    struct gen *g = x->g;
    int64_t bytes = MIGRATION_BYTES[rng_below(&x->rng, COUNT_OF(MIGRATION_BYTES))];
    int64_t start = extra_tick(x, 500, 20000);
    int64_t end = start + bytes / 12 + rng_range(&x->rng, 300, 3000);
    note_time(g, end);
    struct table_writer *w = &g->w_memcpy;
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, g->contexts[p->first_context].device);
    put_int(w, 0); /* contextId */
    put_null(w);   /* greenContextId */
    put_int(w, 0); /* streamId */
    put_int(w, 0); /* correlationId */
    put_int(w, (int64_t)p->gpid);
    put_int(w, bytes);
    put_int(w, to_device ? COPY_UVM_HTOD : COPY_UVM_DTOH);
    put_null(w); /* deprecatedSrcId */
    put_int(w, MEM_UNKNOWN);
    put_int(w, MEM_UNKNOWN);
    for (int i = 0; i < 4; i++)
        put_null(w); /* src/dst device and context */
    put_int(w, to_device ? 2 : 4); /* migrationCause: page fault, eviction */
    put_null(w);                   /* graphNodeId */
    put_int(w, addr);
    row_end(w);
}

static void um_cpu_fault(struct extra_gen *x, const struct process *p, int64_t addr)
{
    struct gen *g = x->g;
    int64_t pc = UM_CPU_PCS[rng_below(&x->rng, COUNT_OF(UM_CPU_PCS))];
    char text[32];
    snprintf(text, sizeof text, "0x%" PRIx64, pc);
    int64_t instruction = intern(g, text);
    int64_t module = intern(g, MODULE_APP);
    struct table_writer *w = &x->w_cpu_faults;
    row_begin(g->cfg, w);
    put_int(w, extra_tick(x, 500, 20000));
    put_int(w, (int64_t)p->gpid);
    put_int(w, addr);
    put_int(w, pc);
    put_int(w, instruction);
    put_int(w, module);
    put_int(w, 0); /* unresolvedFaultPc */
    row_end(w);
}

static void um_gpu_fault(struct extra_gen *x, const struct process *p, int64_t addr)
{
    struct gen *g = x->g;
    int64_t start = extra_tick(x, 500, 20000);
    int64_t end = start + rng_range(&x->rng, 1000, 30000);
    int64_t faults = rng_range(&x->rng, 1, 16);
    int64_t access = rng_range(&x->rng, 1, 3);
    note_time(g, end);
    struct table_writer *w = &x->w_gpu_faults;
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, (int64_t)p->gpid);
    put_int(w, g->contexts[p->first_context].device);
    put_int(w, addr);
    put_int(w, faults);
    put_int(w, access);
    row_end(w);
}

static void write_um(struct extra_gen *x)
{
    int64_t n = x->g->cfg->um_events;
    int64_t pages = max64(3, n / 6);
    struct weighted_table pick = {0};
    weighted_init(&pick, UM_WEIGHTS, UM_EVENTS);
    for (int64_t i = 0; i < n; i++) {
        const struct process *p = extra_process(x, i);
        int64_t addr = um_page(x, p, pages);
        switch ((enum um_event)weighted_pick_rng(&x->rng, &pick)) {
        case UM_HTOD: um_migration(x, p, addr, true); break;
        case UM_DTOH: um_migration(x, p, addr, false); break;
        case UM_CPU_FAULT: um_cpu_fault(x, p, addr); break;
        case UM_GPU_FAULT: um_gpu_fault(x, p, addr); break;
        case UM_EVENTS:
        default: fail("internal error: no unified memory event");
        }
    }
}

/* ---- OpenMP: regions of five kinds, each in its own table ---- */

#define OPENMP_CLASS 78 /* TRACE_PROCESS_EVENT_OPENMP */

struct omp_event {
    int table;       /* index into w_omp */
    const char *name;
    int64_t kind;    /* the table's `kind` column (an ENUM_OPENMP_* id), 0 for none */
    int64_t min_ns, max_ns;
};

/* The same names appear in two tables (a barrier and the wait in it), as they do in captures. */
static const struct omp_event OMP_EVENTS[] = {
    {0, "parallel", 0, 50000, 900000},
    {1, "barrier_implicit", 2, 2000, 90000},
    {1, "taskwait", 5, 1000, 40000},
    {2, "barrier_implicit", 2, 1000, 80000},
    {2, "taskwait", 5, 500, 30000},
    {3, "loop", 1, 5000, 300000},
    {3, "single_executor", 3, 1000, 20000},
    {4, "task", 4, 3000, 150000},
};
static const int OMP_WEIGHTS[COUNT_OF(OMP_EVENTS)] = {3, 5, 1, 4, 1, 5, 1, 2};
/* ENUM_OPENMP_EVENT_KIND of each table's rows: Parallel, Sync region, Sync region wait, Workshare, Task */
static const int64_t OMP_TABLE_KIND[5] = {28, 30, 29, 36, 31};

static void omp_row(struct extra_gen *x, const struct thread *th, const struct omp_event *e, int64_t region)
{
    struct gen *g = x->g;
    int64_t start = extra_tick(x, 1000, 40000);
    int64_t end = start + rng_range(&x->rng, e->min_ns, e->max_ns);
    int64_t task = rng_range(&x->rng, 1, 64);
    int64_t count = rng_range(&x->rng, 1, 4096);
    int64_t name = intern(g, e->name);
    note_time(g, end);
    struct table_writer *w = &x->w_omp[e->table];
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, OPENMP_CLASS);
    put_int(w, (int64_t)th->gtid);
    put_null(w); /* correlationId: unused */
    put_int(w, name);
    put_int(w, OMP_TABLE_KIND[e->table]);
    switch (e->table) {
    case 0: put_int(w, region); put_int(w, task); break;                              /* parallelId, parentTaskId */
    case 1: case 2: case 4: put_int(w, region); put_int(w, task); put_int(w, e->kind); break; /* ..., kind */
    case 3: put_int(w, e->kind); put_int(w, region); put_int(w, task); put_int(w, count); break;
    default: fail("internal error: no OpenMP table %d", e->table);
    }
    row_end(w);
}

static void write_openmp(struct extra_gen *x)
{
    struct weighted_table pick = {0};
    weighted_init(&pick, OMP_WEIGHTS, COUNT_OF(OMP_EVENTS));
    for (int64_t i = 0; i < x->g->cfg->openmp_events; i++)
        omp_row(x, extra_thread(x, i), &OMP_EVENTS[weighted_pick_rng(&x->rng, &pick)], 1 + i / 8);
}

/* ---- OpenACC: data, launch and other events ---- */

struct acc_event {
    int table; /* 0 data, 1 launch, 2 other */
    const char *name;
    int64_t kind; /* ENUM_OPENACC_EVENT_KIND */
    int64_t min_ns, max_ns;
    int64_t line; /* of its directive; the event of the next loop nest is 40 lines down */
};

/* acc_implicit_wait comes from two tables: openacc_sum adds them up by name (with its source line). */
static const struct acc_event ACC_EVENTS[] = {
    {0, "acc_enqueue_upload", 5, 2000, 120000, 31},
    {0, "acc_enqueue_download", 6, 2000, 150000, 88},
    {0, "acc_create", 13, 500, 20000, 30},
    {0, "acc_delete", 14, 500, 10000, 95},
    {1, "acc_enqueue_launch", 4, 3000, 60000, 52},
    {1, "acc_implicit_wait", 8, 1000, 90000, 52},
    {2, "acc_compute_construct", 9, 20000, 900000, 52},
    {2, "acc_enter_data", 11, 5000, 200000, 30},
    {2, "acc_exit_data", 12, 5000, 250000, 95},
    {2, "acc_implicit_wait", 8, 1000, 70000, 52},
    {2, "acc_wait", 7, 1000, 50000, 77},
};
static const int ACC_WEIGHTS[COUNT_OF(ACC_EVENTS)] = {4, 3, 1, 1, 5, 2, 3, 1, 1, 2, 1};
static const char *const ACC_VARS[] = {"a[0:n]", "b[0:n]", "c[0:n]", "grid[0:nx*ny]"};
static const char *const ACC_FUNCS[] = {"main", "jacobi_step", "swap_grids"};

static void acc_row(struct extra_gen *x, const struct thread *th, const struct acc_event *e)
{
    struct gen *g = x->g;
    int64_t start = extra_tick(x, 1000, 40000);
    int64_t end = start + rng_range(&x->rng, e->min_ns, e->max_ns);
    int64_t line = e->line + 40 * rng_below(&x->rng, 2);
    bool no_source = rng_one_in(&x->rng, 6); /* code built without line information */
    int64_t func = intern(g, ACC_FUNCS[rng_below(&x->rng, COUNT_OF(ACC_FUNCS))]);
    int64_t bytes = COPY_BYTES[rng_below(&x->rng, 6)];
    int64_t var = intern(g, ACC_VARS[rng_below(&x->rng, COUNT_OF(ACC_VARS))]);
    int64_t gangs = rng_range(&x->rng, 1, 1024);
    int64_t name = intern(g, e->name);
    int64_t src = intern(g, "/home/user/jacobi/jacobi.c");
    const struct context *c = &g->contexts[g->procs[th->process].first_context];
    note_time(g, end);
    struct table_writer *w = &x->w_acc[e->table];
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, name);
    put_int(w, (int64_t)th->gtid);
    put_int(w, e->kind);
    put_int(w, 4); /* DeviceType: acc_device_nvidia */
    put_int(w, line);
    put_int(w, c->device);
    put_int(w, c->context_id);
    put_int(w, c->first_stream_id + 1);
    put_int_or_null(w, !no_source, src);
    put_int(w, func);
    if (e->table == 0) {
        put_int(w, bytes);
        put_int(w, var);
    } else if (e->table == 1) {
        put_int(w, gangs);
        put_int(w, 1);   /* numWorkers */
        put_int(w, 128); /* vectorLength */
        put_int(w, intern(g, "jacobi_step_42_gpu"));
    }
    row_end(w);
}

static void write_openacc(struct extra_gen *x)
{
    struct weighted_table pick = {0};
    weighted_init(&pick, ACC_WEIGHTS, COUNT_OF(ACC_EVENTS));
    for (int64_t i = 0; i < x->g->cfg->openacc_events; i++)
        acc_row(x, extra_thread(x, i), &ACC_EVENTS[weighted_pick_rng(&x->rng, &pick)]);
}

/* ---- WDDM: queue packets and the DMA packets that run them, on three contexts per process ---- */

struct wddm_queue {
    int64_t engine, node;
    const char *name;
};
static const struct wddm_queue WDDM_QUEUES[] = {{1, 0, "3D"}, {6, 2, "Copy"}, {2, 4, "Video Decode"}};
#define WDDM_NQUEUES ((int)COUNT_OF(WDDM_QUEUES))
static const int WDDM_WEIGHTS[WDDM_NQUEUES] = {6, 3, 1};

static int64_t wddm_context(const struct gen *g, const struct process *p, int q)
{
    return INT64_C(0x1F2A3B4C000) + (int64_t)(p - g->procs) * INT64_C(0x100000) + q * INT64_C(0x1000);
}

static void write_wddm_contexts(struct extra_gen *x)
{
    struct gen *g = x->g;
    for (int pi = 0; pi < g->cfg->processes; pi++)
        for (int q = 0; q < WDDM_NQUEUES; q++) {
            struct table_writer *w = &x->w_wddm_contexts;
            row_begin(g->cfg, w);
            put_int(w, wddm_context(g, &g->procs[pi], q));
            put_int(w, WDDM_QUEUES[q].engine);
            put_int(w, WDDM_QUEUES[q].node);
            put_text(w, WDDM_QUEUES[q].name);
            row_end(w);
        }
}

/* One packet: queued at submit, run as a DMA packet from dma_start to dma_stop, done at done. */
struct wddm_packet {
    const struct thread *th;
    int64_t context, engine, seq, gpu;
    int64_t submit, dma_start, dma_stop, done;
    bool finished; /* still in flight at the end of the capture otherwise */
};

static void wddm_queue_rows(struct extra_gen *x, const struct wddm_packet *k)
{
    const struct config *cfg = x->g->cfg;
    struct table_writer *w = &x->w_queue_start;
    row_begin(cfg, w);
    put_int(w, k->submit);
    put_int(w, k->submit);
    put_int(w, (int64_t)k->th->gtid);
    put_int(w, k->gpu);
    put_int(w, k->context);
    put_int(w, 4096 * (1 + k->seq % 4)); /* dmaBufferSize */
    put_int(w, INT64_C(0x2A0000000) + k->seq * 0x10000); /* dmaBuffer */
    put_int(w, INT64_C(0x3B0000000) + k->seq * 0x100);   /* queuePacket */
    put_int(w, k->seq);                                  /* progressFenceValue */
    put_int(w, 0);                                       /* packetType: render */
    put_int(w, k->seq);
    put_int(w, 1 + k->seq % 7); /* allocationListSize */
    put_int(w, k->seq % 3);     /* patchLocationListSize */
    put_int(w, 0);              /* present */
    put_int(w, k->engine);
    put_null(w); /* syncObject */
    row_end(w);
    if (!k->finished)
        return;
    w = &x->w_queue_stop;
    row_begin(cfg, w);
    put_int(w, k->done);
    put_int(w, k->done);
    put_int(w, (int64_t)k->th->gtid);
    put_int(w, k->gpu);
    put_int(w, k->context);
    put_int(w, INT64_C(0x3B0000000) + k->seq * 0x100);
    put_int(w, 0);
    put_int(w, k->seq);
    put_int(w, 0); /* preempted */
    put_int(w, 0); /* timeouted */
    put_int(w, k->engine);
    row_end(w);
}

static void wddm_dma_rows(struct extra_gen *x, const struct wddm_packet *k)
{
    const struct config *cfg = x->g->cfg;
    struct table_writer *w = &x->w_dma_start;
    row_begin(cfg, w);
    put_int(w, k->dma_start);
    put_int(w, k->dma_start);
    put_int(w, (int64_t)k->th->gtid);
    put_int(w, k->gpu);
    put_int(w, k->context);
    put_int(w, k->context + 0x10); /* queuePacketContext */
    put_int(w, k->seq);            /* uliSubmissionId */
    put_int(w, INT64_C(0x2A0000000) + k->seq * 0x10000);
    put_int(w, 0);
    put_int(w, k->seq);
    put_int(w, 0); /* quantumStatus */
    put_int(w, k->engine);
    row_end(w);
    if (!k->finished)
        return;
    w = &x->w_dma_stop;
    row_begin(cfg, w);
    put_int(w, k->dma_stop);
    put_int(w, k->dma_stop);
    put_int(w, (int64_t)k->th->gtid);
    put_int(w, k->gpu);
    put_int(w, k->context);
    put_int(w, k->seq); /* uliCompletionId */
    put_int(w, 0);
    put_int(w, k->seq);
    put_int(w, 0); /* preempted */
    put_int(w, k->engine);
    row_end(w);
}

static void write_wddm(struct extra_gen *x)
{
    struct gen *g = x->g;
    int64_t n = g->cfg->wddm_packets;
    int64_t *seq = xcalloc((size_t)(g->cfg->processes * WDDM_NQUEUES), sizeof *seq);
    int64_t *busy = xcalloc((size_t)(g->cfg->processes * WDDM_NQUEUES), sizeof *busy);
    struct weighted_table pick = {0};
    weighted_init(&pick, WDDM_WEIGHTS, WDDM_NQUEUES);
    write_wddm_contexts(x);
    for (int64_t i = 0; i < n; i++) {
        const struct thread *th = extra_thread(x, i);
        const struct process *p = &g->procs[th->process];
        int q = (int)weighted_pick_rng(&x->rng, &pick);
        size_t lane = (size_t)(th->process * WDDM_NQUEUES + q);
        struct wddm_packet k = {th, wddm_context(g, p, q), WDDM_QUEUES[q].engine, ++seq[lane],
                                g->contexts[p->first_context].device, 0, 0, 0, 0, true};
        k.submit = extra_tick(x, 2000, 300000);
        /* the GPU runs a queue's packets one at a time, so packets wait in the queue */
        k.dma_start = max64(k.submit + rng_range(&x->rng, 1000, 20000), busy[lane]);
        k.dma_stop = k.dma_start + rng_range(&x->rng, 5000, 400000);
        k.done = k.dma_stop + rng_range(&x->rng, 500, 8000);
        k.finished = i < n - 2 || !rng_one_in(&x->rng, 2);
        busy[lane] = k.dma_stop;
        note_time(g, k.done);
        wddm_queue_rows(x, &k);
        wddm_dma_rows(x, &k);
    }
    free(seq);
    free(busy);
}

static void write_extra_rows(struct gen *g)
{
    const struct config *c = g->cfg;
    if (!c->um_events && !c->openmp_events && !c->openacc_events && !c->wddm_packets)
        return;
    struct extra_gen x = {
        .g = g,
        .now = g->procs[0].start_time + 1000000,
        .w_cpu_faults = WRITER("CUDA_UM_CPU_PAGE_FAULT_EVENTS"),
        .w_gpu_faults = WRITER("CUDA_UM_GPU_PAGE_FAULT_EVENTS"),
        .w_omp = {WRITER("OPENMP_EVENT_KIND_PARALLEL"),
                  WRITER("OPENMP_EVENT_KIND_SYNC_REGION"),
                  WRITER("OPENMP_EVENT_KIND_SYNC_REGION_WAIT"),
                  WRITER("OPENMP_EVENT_KIND_WORKSHARE"),
                  WRITER("OPENMP_EVENT_KIND_TASK")},
        .w_acc = {WRITER("CUPTI_ACTIVITY_KIND_OPENACC_DATA"),
                  WRITER("CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH"),
                  WRITER("CUPTI_ACTIVITY_KIND_OPENACC_OTHER")},
        .w_wddm_contexts = WRITER("TARGET_INFO_WDDM_CONTEXTS"),
        .w_queue_start = WRITER("WDDM_QUEUE_PACKET_START_EVENTS"),
        .w_queue_stop = WRITER("WDDM_QUEUE_PACKET_STOP_EVENTS"),
        .w_dma_start = WRITER("WDDM_DMA_PACKET_START_EVENTS"),
        .w_dma_stop = WRITER("WDDM_DMA_PACKET_STOP_EVENTS"),
    };
    rng_seed(&x.rng, c->seed ^ UINT64_C(0x756d6f6d70616363));
    write_um(&x);
    write_openmp(&x);
    write_openacc(&x);
    write_wddm(&x);
    struct table_writer *writers[] = {&x.w_cpu_faults, &x.w_gpu_faults, &x.w_omp[0], &x.w_omp[1], &x.w_omp[2],
                                      &x.w_omp[3], &x.w_omp[4], &x.w_acc[0], &x.w_acc[1], &x.w_acc[2],
                                      &x.w_wddm_contexts, &x.w_queue_start, &x.w_queue_stop, &x.w_dma_start,
                                      &x.w_dma_stop};
    for (size_t i = 0; i < COUNT_OF(writers); i++)
        writer_close(writers[i]);
}

/* ======================================================================================= NVTX range edge cases */

/* What nvtx_pushpop_trace must get right beyond well-nested ranges. Offsets from a common base; every
 * thread of the first process writes them at the same instants, so ranges tie across threads too. Entries
 * go thread by thread, forwards for even entries and backwards for odd ones, so that rowids do not follow
 * the order in which parents come. No random numbers are drawn: the rest of the export stays the same. */
struct nvtx_edge {
    int64_t start, end;
    struct nvtx_name name;
};

static const struct nvtx_edge NVTX_EDGES[] = {
    {0, 10000, {"deep 0", 0, false}},       {100, 9900, {"deep 1", 0, true}},  {200, 9800, {"deep 2", 1, false}},
    {300, 9700, {"deep 3", 0, false}},      {400, 9600, {"deep 4", 0, false}}, {500, 9500, {"deep 5", 0, false}},
    {600, 9400, {"deep 6", 0, false}},      {700, 9300, {"deep 7", 0, false}}, {20000, 30000, {"tie outer", 0, false}},
    {20000, 25000, {"same start", 0, false}}, {26000, 30000, {"same end", 0, false}},
    {40000, 50000, {"twin", 0, false}},     {40000, 50000, {"twin", 0, false}}, {41000, 42000, {"inside twins", 0, false}},
    {60000, 61000, {"touch left", 0, false}}, {61000, 62000, {"touch right", 0, false}},
    {61000, 61000, {"zero at the seam", 0, false}}, {70000, 72000, {"cross a", 2, false}},
    {71000, 73000, {"cross b", 0, false}},  {71500, 71600, {"inside both", 0, false}}, {80000, 80000, {"zero", 0, false}},
};
static const struct nvtx_name NVTX_EDGE_OPEN = {"never popped", 0, false};
static const struct nvtx_name NVTX_EDGE_IN_OPEN = {"inside the open one", 0, true};
#define NVTX_EDGE_OPEN_AT 90000

static void nvtx_edge_row(struct gen *g, const struct thread *th, int64_t start, bool has_end, int64_t end,
                          const struct nvtx_name *name)
{
    write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_PUSH_POP, .start = start, .has_end = has_end,
                                         .end = end, .name = name, .gtid = th->gtid});
}

static void nvtx_edge_cases(struct gen *g)
{
    int64_t base = 0;
    for (int t = 0; t < g->nthreads; t++)
        base = max64(base, g->threads[t].now);
    base += 1000000;
    int n = (int)g->cfg->threads;
    const struct process *p = &g->procs[0];
    for (size_t i = 0; i < COUNT_OF(NVTX_EDGES); i++) {
        const struct nvtx_edge *e = &NVTX_EDGES[i];
        for (int k = 0; k < n; k++) {
            const struct thread *th = &g->threads[p->first_thread + (i % 2 ? n - 1 - k : k)];
            nvtx_edge_row(g, th, base + e->start, true, base + e->end, &e->name);
        }
    }
    const struct thread *first = &g->threads[p->first_thread];
    nvtx_edge_row(g, first, base + NVTX_EDGE_OPEN_AT + 500, true, base + NVTX_EDGE_OPEN_AT + 1000,
                  &NVTX_EDGE_IN_OPEN);
    nvtx_edge_row(g, first, base + NVTX_EDGE_OPEN_AT, false, 0, &NVTX_EDGE_OPEN);
}

/* --nvtx-domain-threads: the named domains again on the other threads of each process, as when several
 * threads call nvtxDomainCreate with one name; at process start, after every other NVTX row. */
static void nvtx_domains_on_threads(struct gen *g)
{
    for (int pi = 0; pi < (int)g->cfg->processes; pi++) {
        const struct process *p = &g->procs[pi];
        for (int t = 1; t < (int)g->cfg->threads; t++)
            for (size_t d = 1; d < COUNT_OF(NVTX_DOMAINS); d++) {
                struct nvtx_name domain = {NVTX_DOMAINS[d], (int)d, false};
                write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_DOMAIN_CREATE, .start = p->start_time,
                                                     .name = &domain, .gtid = g->threads[p->first_thread + t].gtid});
            }
    }
}

static void nvtx_extras(struct gen *g)
{
    if (g->cfg->nvtx_edges)
        nvtx_edge_cases(g);
    if (g->cfg->nvtx_domain_threads && g->cfg->nvtx_ranges > 0)
        nvtx_domains_on_threads(g);
}

/* ======================================================================================= NVTX around launches */

/* --launch-ranges: ranges that hold GPU launches on the launching thread, so that nvtx_kern_sum,
 * nvtx_gpu_proj_* and nvtx-name have work inside ranges at any scale (1M launches, 1M ranges).
 * A "group" push/pop range holds 1 to 8 launches of its thread; around each launch a chain of up
 * to 3 nested ranges opens just before the call and closes just after it, its outermost one a
 * start/end range 1 time in 4. Every choice draws from a stream of its own, so without the option
 * nothing changes; with it, --backtrace still only adds rows (a push outlasts a backtrace row's
 * lead, so the backtrace row stays inside the ranges of its call). */

#define LR_CHAIN_MAX 3
#define LR_GROUP_MAX_LAUNCHES 8

struct lr_thread {
    struct open_range group;
    bool group_open;
    int64_t group_left; /* launches still to come inside the group */
    struct open_range chain[LR_CHAIN_MAX];
    bool chain_start_end[LR_CHAIN_MAX];
    int nchain;
};

struct launch_ranges {
    struct rng rng;
    int64_t left;          /* ranges still to open */
    int64_t launches_left; /* GPU launch events still to come */
    struct lr_thread *threads;
};

static bool is_launch(enum event_kind kind)
{
    return kind == EV_KERNEL || kind == EV_MEMCPY || kind == EV_MEMSET;
}

static void launch_ranges_setup(struct gen *g)
{
    const struct config *c = g->cfg;
    if (c->launch_ranges == 0)
        return;
    g->lr = xcalloc(1, sizeof *g->lr);
    rng_seed(&g->lr->rng, c->seed ^ UINT64_C(0x6c61756e63686e76));
    g->lr->left = c->launch_ranges;
    g->lr->launches_left = c->kernels + c->memcpys + c->memsets;
    g->lr->threads = xcalloc((size_t)g->nthreads, sizeof *g->lr->threads);
}

/* How many ranges this launch gets: the remaining ones spread evenly over the remaining launches. */
static int64_t lr_quota(struct launch_ranges *lr)
{
    int64_t want = lr->left / lr->launches_left;
    if (rng_below(&lr->rng, lr->launches_left) < lr->left % lr->launches_left)
        want++;
    return min64(want, 1 + LR_CHAIN_MAX);
}

/* The push (or start) itself takes time, as in close_push_pop's counterpart. */
static struct open_range lr_open(struct gen *g, struct thread *th, const struct nvtx_name *name)
{
    struct open_range r = {.start = th->now, .name = name};
    g->lr->left--;
    th->now += rng_range(&g->lr->rng, 500, 900);
    return r;
}

static void lr_open_chain(struct gen *g, struct thread *th, struct lr_thread *lt, int64_t n)
{
    struct launch_ranges *lr = g->lr;
    for (int i = 0; i < n; i++) {
        bool start_end = i == 0 && rng_one_in(&lr->rng, 4);
        const struct nvtx_level *level = &NVTX_LEVELS[1 + i];
        const struct nvtx_name *name =
            start_end ? &NVTX_START_END[rng_below(&lr->rng, COUNT_OF(NVTX_START_END))]
                      : &level->names[rng_below(&lr->rng, (int64_t)level->count)];
        struct open_range r = lr_open(g, th, name);
        if (start_end) {
            r.range_id = g->procs[th->process].next_range_id++;
            r.cross_thread = g->cfg->threads > 1 && rng_one_in(&lr->rng, 8);
        }
        lt->chain_start_end[i] = start_end;
        lt->chain[lt->nchain++] = r;
    }
}

static void launch_ranges_before(struct gen *g, struct thread *th, enum event_kind kind)
{
    struct launch_ranges *lr = g->lr;
    if (!lr || !is_launch(kind))
        return;
    struct lr_thread *lt = &lr->threads[th - g->threads];
    int64_t want = lr_quota(lr);
    lr->launches_left--;
    if (want > 0 && !lt->group_open && (want > LR_CHAIN_MAX || rng_one_in(&lr->rng, 2))) {
        lt->group = lr_open(g, th, &NVTX_LEVEL0[rng_below(&lr->rng, COUNT_OF(NVTX_LEVEL0))]);
        lt->group_open = true;
        lt->group_left = 1 + rng_below(&lr->rng, LR_GROUP_MAX_LAUNCHES);
        want--;
    }
    lr_open_chain(g, th, lt, min64(want, LR_CHAIN_MAX));
}

static void lr_close(struct gen *g, struct thread *th, const struct open_range *r, bool start_end)
{
    const struct process *p = &g->procs[th->process];
    uint64_t other = g->threads[p->first_thread + (th->index_in_process + 1) % g->cfg->threads].gtid;
    th->now += rng_range(&g->lr->rng, 300, 600);
    write_nvtx_row(g, &(struct nvtx_row){.event_type = start_end ? NVTX_START_END_RANGE : NVTX_PUSH_POP,
                                         .start = r->start, .has_end = true, .end = th->now, .name = r->name,
                                         .gtid = th->gtid, .has_end_gtid = start_end && r->cross_thread,
                                         .end_gtid = other, .has_range_id = start_end, .range_id = r->range_id});
}

static void lr_close_group(struct gen *g, struct thread *th, struct lr_thread *lt)
{
    lr_close(g, th, &lt->group, false);
    lt->group_open = false;
}

static void launch_ranges_after(struct gen *g, struct thread *th, enum event_kind kind)
{
    if (!g->lr || !is_launch(kind))
        return;
    struct lr_thread *lt = &g->lr->threads[th - g->threads];
    while (lt->nchain > 0) {
        lt->nchain--;
        lr_close(g, th, &lt->chain[lt->nchain], lt->chain_start_end[lt->nchain]);
    }
    if (lt->group_open && --lt->group_left == 0)
        lr_close_group(g, th, lt);
}

static void launch_ranges_finish(struct gen *g)
{
    if (!g->lr)
        return;
    for (int t = 0; t < g->nthreads; t++)
        if (g->lr->threads[t].group_open)
            lr_close_group(g, &g->threads[t], &g->lr->threads[t]);
    free(g->lr->threads);
    free(g->lr);
    g->lr = NULL;
}

/* ======================================================================================= setup */

static void write_enum_tables(void)
{
    for (size_t t = 0; t < COUNT_OF(ENUM_TABLES); t++) {
        const struct enum_table *e = &ENUM_TABLES[t];
        char *create = sqlite3_mprintf(SQL_ENUM_FORMAT, e->table, e->comment);
        char *insert = sqlite3_mprintf("INSERT INTO %s (id, name, label) VALUES (?1, ?2, ?3)", e->table);
        if (!create || !insert)
            fail("out of memory");
        struct table_writer w = WRITER(e->table);
        exec_sql(create, "creating an ENUM table");
        if (sqlite3_prepare_v2(g_out.db, insert, -1, &w.insert, NULL) != SQLITE_OK)
            fail_sqlite("preparing an ENUM insert");
        w.ncols = 3;
        for (size_t i = 0; i < e->nrows; i++) {
            w.next = 1;
            w.bind_rc = SQLITE_OK;
            put_int(&w, e->rows[i].id);
            put_text(&w, e->rows[i].name);
            put_text(&w, e->rows[i].label);
            row_end(&w);
        }
        writer_close(&w);
        sqlite3_free(create);
        sqlite3_free(insert);
    }
}

static void write_name_value(struct gen *g, struct table_writer *w, const char *name, const char *value)
{
    row_begin(g->cfg, w);
    put_text(w, name);
    put_text(w, value);
    row_end(w);
}

static void format_utc(char *buf, size_t size, int64_t epoch_s)
{
    time_t t = (time_t)epoch_s;
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm))
        fail("internal error: cannot format a date");
}

/* The session starts on a fixed date, moved by the seed; never the clock, so output is reproducible. */
static int64_t session_epoch_s(const struct gen *g) { return INT64_C(1718181065) + (int64_t)(g->cfg->seed % 86400); }

static void write_metadata(struct gen *g)
{
    char seed_file[64], utc[32], export_utc[32];
    snprintf(seed_file, sizeof seed_file, "nsysgen-seed%" PRIu64 ".nsys-rep", g->cfg->seed);
    format_utc(utc, sizeof utc, session_epoch_s(g));
    format_utc(export_utc, sizeof export_utc, session_epoch_s(g) + 120);
    static const char *const FIXED[][2] = {
        {"EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"},
        {"EXPORT_PRODUCT_VERSION", "2024.2.3.38"},
        {"EXPORT_PRODUCT_DATE", "2024.2"},
        {"EXPORT_SCHEMA_VERSION", "3.11.0"},
        {"EXPORT_SCHEMA_VERSION_MAJOR", "3"},
        {"EXPORT_SCHEMA_VERSION_MINOR", "11"},
        {"EXPORT_SCHEMA_VERSION_MICRO", "0"},
        {"EXPORT_PLATFORM", "linux-desktop"},
        {"EXPORT_ARCH", "x64"},
    };
    for (size_t i = 0; i < COUNT_OF(FIXED); i++)
        write_name_value(g, &g->w_meta_export, FIXED[i][0], FIXED[i][1]);
    write_name_value(g, &g->w_meta_export, "EXPORT_TIME_UTC", export_utc);
    write_name_value(g, &g->w_meta_export, "EXPORT_TIME_LOCAL", export_utc);
    write_name_value(g, &g->w_meta_export, "EXPORT_HOST", "nsysgen");
    write_name_value(g, &g->w_meta_export, "EXPORT_PARAM_INPUT_FILE", seed_file);
    write_name_value(g, &g->w_meta_export, "EXPORT_PARAM_OUTUPT_FILE", "report1.sqlite"); /* sic, as nsys spells it */
    write_name_value(g, &g->w_meta_export, "EXPORT_PARAM_LAZY", "true");
    write_name_value(g, &g->w_meta_export, "EXPORT_PARAM_TIME_NORMALIZE", "false");

    write_name_value(g, &g->w_meta_capture, "DEVICE_ID", "Local (CLI)");
    write_name_value(g, &g->w_meta_capture, "CAPTURE_EVENT_TYPE", "Cuda");
    write_name_value(g, &g->w_meta_capture, "CAPTURE_EVENT_TYPE", "NvtxEvents");
    write_name_value(g, &g->w_meta_capture, "CAPTURE_EVENT_TYPE", "OSRuntime");
    write_name_value(g, &g->w_meta_capture, "PROCESS_0:COMMAND", "./" PROCESS_NAME);

    struct table_writer *w = &g->w_session;
    row_begin(g->cfg, w);
    put_int(w, session_epoch_s(g) * INT64_C(1000000000) + (int64_t)(g->cfg->seed % 1000000000));
    put_text(w, utc);
    put_text(w, utc);
    row_end(w);
}

static void write_gpu_info(struct gen *g, int device)
{
    char uuid[40], bus[16];
    struct rng r;
    rng_seed(&r, g->cfg->seed * 131 + (uint64_t)device); /* its own stream: GPUs do not shift the content */
    uint64_t a = rng_next(&r), b = rng_next(&r);
    snprintf(uuid, sizeof uuid, "%08x-%04x-%04x-%04x-%012" PRIx64, (unsigned)(a >> 32), (unsigned)(a >> 16) & 0xffff,
             (unsigned)a & 0xffff, (unsigned)(b >> 48), b & UINT64_C(0xffffffffffff));
    if (device < (int)COUNT_OF(GPU_BUS_IDS))
        snprintf(bus, sizeof bus, "%s", GPU_BUS_IDS[device]);
    else
        snprintf(bus, sizeof bus, "0000:%02X:00.0", (unsigned)(device & 0xff));
    const int64_t FIGURES[] = {
        /* revision .. smMinor, in schema order */
        161, 0, 65536, 4, 65536, 49152, 232448, 233472, 65536, 32, 3, 64, 32, 1024, 1024, 1024, 64, 2147483647,
        65535, 65535, 9, 0, 9, 0};
    struct table_writer *w = &g->w_gpu_info;
    row_begin(g->cfg, w);
    put_int(w, (int64_t)GLOBAL_VM_BITS); /* vmId */
    put_int(w, device);
    put_text(w, "NVIDIA H100 80GB HBM3");
    put_text(w, bus);
    put_int(w, 1);                        /* isDiscrete */
    put_int(w, 52428800);                 /* l2CacheSize */
    put_int(w, INT64_C(85029158912));     /* totalMemory */
    put_int(w, INT64_C(3352320000000));   /* memoryBandwidth */
    put_int(w, 1980000000);               /* clockRate */
    put_int(w, 132);                      /* smCount */
    put_int(w, device);                   /* pwGpuId */
    put_text(w, uuid);
    put_int(w, 0);                        /* luid */
    put_text(w, "GH100");
    put_int(w, device);                   /* cuDevice */
    put_null(w);                          /* ctxswDevPath */
    put_null(w);                          /* ctrlDevPath */
    for (size_t i = 0; i < COUNT_OF(FIGURES); i++)
        put_int(w, FIGURES[i]);
    row_end(w);
}

static void write_context_info(struct gen *g, int ctx)
{
    const struct context *c = &g->contexts[ctx];
    const struct process *p = &g->procs[c->process];
    struct table_writer *w = &g->w_context_info;
    row_begin(g->cfg, w);
    put_int(w, c->first_stream_id); /* nullStreamId */
    put_int(w, 0);                  /* hwId */
    put_int(w, VM_ID);
    put_int(w, p->pid);
    put_int(w, c->device);
    put_int(w, c->context_id);
    put_null(w); /* parentContextId */
    put_null(w); /* isGreenContext */
    row_end(w);
    for (int s = 0; s < g->cfg->streams; s++) {
        struct table_writer *ws = &g->w_stream_info;
        row_begin(g->cfg, ws);
        put_int(ws, stream_id(g, ctx, s));
        put_int(ws, 0); /* hwId */
        put_int(ws, VM_ID);
        put_int(ws, p->pid);
        put_int(ws, c->context_id);
        put_int(ws, 0);          /* priority */
        put_int(ws, s ? 2 : 3); /* ENUM_CUPTI_STREAM_TYPE: non-blocking, null stream */
        row_end(ws);
    }
}

static void write_thread_name(struct gen *g, uint64_t gtid, const char *name, int priority)
{
    struct table_writer *w = &g->w_thread_names;
    row_begin(g->cfg, w);
    put_int(w, intern(g, name));
    put_int(w, priority);
    put_int(w, (int64_t)gtid);
    row_end(w);
}

static uint64_t global_tid(int64_t pid, int64_t tid) { return GLOBAL_VM_BITS | (uint64_t)pid << 24 | (uint64_t)tid; }

/* With at least as many processes as devices each process uses one device (MPI style); otherwise the
 * devices are shared out so that every one is used. */
static bool process_uses_device(const struct config *c, int p, int d)
{
    return c->processes >= c->devices ? d == p % c->devices : d % c->processes == p;
}

static void setup_processes(struct gen *g)
{
    const struct config *c = g->cfg;
    g->procs = xcalloc((size_t)c->processes, sizeof *g->procs);
    g->contexts = xcalloc((size_t)(c->processes * c->devices), sizeof *g->contexts);
    g->nthreads = (int)(c->processes * c->threads);
    g->threads = xcalloc((size_t)g->nthreads, sizeof *g->threads);
    int64_t corr_span = (2 * (c->kernels + c->memcpys + c->memsets + c->other_api) + 1000) * c->corr_stride;
    for (int pi = 0; pi < c->processes; pi++) {
        struct process *p = &g->procs[pi];
        p->pid = FIRST_PID + (int64_t)(c->seed % 1000) * 41 + pi * 17; /* MPI ranks start close together */
        p->gpid = global_tid(p->pid, 0);
        p->next_corr = 1 + (c->collide ? 0 : pi * corr_span);
        p->next_grid_id = 1;
        p->next_range_id = 1;
        p->start_time = 100000000 + rng_below(&g->rng, 20000000);
        p->backtrace = pi < c->backtrace_processes;
        p->first_context = g->ncontexts;
        for (int d = 0; d < c->devices; d++) {
            if (!process_uses_device(c, pi, d))
                continue;
            struct context *ctx = &g->contexts[g->ncontexts];
            ctx->process = pi;
            ctx->device = d;
            ctx->context_id = 1 + p->ncontexts;
            ctx->first_stream_id = 7 + p->ncontexts * c->streams;
            p->ncontexts++;
            g->ncontexts++;
        }
        p->first_thread = pi * (int)c->threads;
        for (int t = 0; t < c->threads; t++) {
            struct thread *th = &g->threads[p->first_thread + t];
            th->process = pi;
            th->index_in_process = t;
            th->gtid = global_tid(p->pid, t ? p->pid + 8 + t : p->pid);
            th->now = p->start_time + (t ? rng_range(&g->rng, 2000000, 5000000) : 0);
        }
    }
}

static void write_processes(struct gen *g)
{
    const struct config *c = g->cfg;
    for (int pi = 0; pi < c->processes; pi++) {
        const struct process *p = &g->procs[pi];
        struct table_writer *w = &g->w_processes;
        row_begin(c, w);
        put_int(w, (int64_t)p->gpid);
        put_int(w, p->pid);
        put_text(w, "./" PROCESS_NAME);
        row_end(w);
        for (int t = 0; t < c->threads; t++) {
            char name[32];
            snprintf(name, sizeof name, "worker %d", t);
            write_thread_name(g, g->threads[p->first_thread + t].gtid, t ? name : PROCESS_NAME, 20);
        }
        for (size_t h = 0; h < COUNT_OF(HELPER_THREADS); h++)
            write_thread_name(g, global_tid(p->pid, p->pid + 1 + (int64_t)h), HELPER_THREADS[h].name,
                              HELPER_THREADS[h].priority);
    }
    for (int ctx = 0; ctx < g->ncontexts; ctx++)
        write_context_info(g, ctx);
    for (int d = 0; d < c->devices; d++)
        write_gpu_info(g, d);
}

/* Kernel names: the families first, then more instances of the templated ones. */
static void setup_kernel_names(struct gen *g)
{
    int64_t n = g->cfg->kernel_names;
    int templated[COUNT_OF(KERNEL_FAMILIES)], ntemplated = 0;
    for (size_t f = 0; f < COUNT_OF(KERNEL_FAMILIES); f++)
        if (KERNEL_FAMILIES[f].param)
            templated[ntemplated++] = (int)f;
    g->kernel_names = xcalloc((size_t)n, sizeof *g->kernel_names);
    g->nkernel_names = n;
    for (int64_t i = 0; i < n; i++) {
        int family, variant = 0;
        if (i < (int64_t)COUNT_OF(KERNEL_FAMILIES)) {
            family = (int)i;
        } else {
            int64_t k = i - (int64_t)COUNT_OF(KERNEL_FAMILIES);
            family = templated[k % ntemplated];
            variant = (int)(1 + k / ntemplated);
        }
        const struct kernel_family *f = &KERNEL_FAMILIES[family];
        int param = f->param + variant * f->param_step;
        char demangled[1024], mangled[1024];
        snprintf(demangled, sizeof demangled, f->demangled, param);
        snprintf(mangled, sizeof mangled, f->mangled, param);
        struct kernel_name *kn = &g->kernel_names[i];
        kn->family = family;
        kn->demangled_id = intern(g, demangled);
        kn->short_id = intern(g, f->short_name);
        kn->mangled_id = intern(g, mangled);
    }
}

/* The sequence every thread launches in a loop, like an application's iteration: each kernel once
 * (so every name shows up once the run has as many launches per thread), then the first four again
 * twice. Equal counts per name give ties and even-sized groups. */
static void setup_kernel_body(struct gen *g)
{
    int64_t n = g->nkernel_names, hot = min64(n, 4);
    g->body_len = n + 2 * hot;
    g->body = xcalloc((size_t)g->body_len, sizeof *g->body);
    for (int64_t i = 0; i < n; i++)
        g->body[i] = i;
    for (int64_t i = 0; i < 2 * hot; i++)
        g->body[n + i] = i % hot;
}

static void setup_api_names(struct gen *g)
{
    int weights[32];
    g->launch_api = intern_api(g, "cudaLaunchKernel_v7000", EVENT_CLASS_CUDA_RUNTIME);
    for (size_t i = 0; i < COUNT_OF(MEMCPY_KINDS); i++) {
        if (MEMCPY_KINDS[i].api)
            g->memcpy_api[i] = intern_api(g, MEMCPY_KINDS[i].api, EVENT_CLASS_CUDA_RUNTIME);
        weights[i] = MEMCPY_KINDS[i].weight;
    }
    weighted_init(&g->memcpy_pick, weights, COUNT_OF(MEMCPY_KINDS));
    for (size_t i = 0; i < COUNT_OF(MEMSET_KINDS); i++) {
        g->memset_api[i] = intern_api(g, MEMSET_KINDS[i].api, EVENT_CLASS_CUDA_RUNTIME);
        weights[i] = MEMSET_KINDS[i].weight;
    }
    weighted_init(&g->memset_pick, weights, COUNT_OF(MEMSET_KINDS));
    for (size_t i = 0; i < COUNT_OF(OTHER_APIS); i++) {
        g->other_api[i] = intern_api(g, OTHER_APIS[i].name, OTHER_APIS[i].event_class);
        weights[i] = OTHER_APIS[i].weight;
    }
    weighted_init(&g->other_pick, weights, COUNT_OF(OTHER_APIS));
    for (size_t i = 0; i < COUNT_OF(OSRT_CALLS); i++) {
        g->osrt_name[i] = intern(g, OSRT_CALLS[i].name);
        weights[i] = OSRT_CALLS[i].weight;
    }
    weighted_init(&g->osrt_pick, weights, COUNT_OF(OSRT_CALLS));
}

static void setup_frame_strings(struct gen *g)
{
    g->sym_cupti[0] = intern(g, "0x7f3a2c4e0588");
    g->sym_cupti[1] = intern(g, "0x7f3a2c4e283c");
    g->sym_cuda_internal = intern(g, "0x7f3a3b8226b6");
    for (int c = 0; c < CALLER_COUNT; c++)
        g->sym_caller[c] = intern(g, CALLER_SYMBOLS[c]);
    g->sym_main = intern(g, "main");
    g->sym_libc_main = intern(g, "__libc_start_call_main");
    g->sym_start = intern(g, "_start");
    g->sym_start_thread = intern(g, "start_thread");
    g->sym_clone = intern(g, "clone3");
    g->mod_app = intern(g, MODULE_APP);
    g->mod_cupti = intern(g, MODULE_CUPTI);
    g->mod_cuda = intern(g, MODULE_CUDA);
    g->mod_cudart = intern(g, MODULE_CUDART);
    g->mod_libc = intern(g, MODULE_LIBC);
}

/* Registered NVTX strings go into StringIds up front, like nvtxDomainRegisterString at start-up. */
static void setup_nvtx_strings(struct gen *g)
{
    const struct {
        const struct nvtx_name *names;
        size_t count;
    } lists[] = {{NVTX_LEVEL0, COUNT_OF(NVTX_LEVEL0)}, {NVTX_LEVEL1, COUNT_OF(NVTX_LEVEL1)},
                 {NVTX_LEVEL2, COUNT_OF(NVTX_LEVEL2)}, {NVTX_LEVEL3, COUNT_OF(NVTX_LEVEL3)},
                 {NVTX_START_END, COUNT_OF(NVTX_START_END)}, {NVTX_MARKS, COUNT_OF(NVTX_MARKS)}};
    for (size_t l = 0; l < COUNT_OF(lists); l++)
        for (size_t i = 0; i < lists[l].count; i++)
            if (lists[l].names[i].registered)
                intern(g, lists[l].names[i].text);
}

/* Per process, at its start: the NVTX domains and the OS runtime "profiling started" marker (a
 * zero-length eventClass 31 row, as nsys writes it; osrt_sum ignores it). */
static void write_process_prologue(struct gen *g, int pi)
{
    const struct process *p = &g->procs[pi];
    struct thread *main_thread = &g->threads[p->first_thread];
    if (g->cfg->osrt_calls > 0) {
        struct table_writer *w = &g->w_osrt;
        row_begin(g->cfg, w);
        put_int(w, p->start_time - 2000000);
        put_int(w, p->start_time - 2000000);
        put_int(w, EVENT_CLASS_OSRT_START);
        put_int(w, (int64_t)p->gpid);
        put_int(w, intern(g, "OS runtime libraries profiling started"));
        put_int(w, 0);
        put_null(w); /* nestingLevel */
        put_int(w, 0);
        row_end(w);
    }
    if (g->cfg->nvtx_ranges > 0 || g->cfg->launch_ranges > 0) {
        for (size_t d = 1; d < COUNT_OF(NVTX_DOMAINS); d++) {
            struct nvtx_name domain = {NVTX_DOMAINS[d], (int)d, false};
            write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_DOMAIN_CREATE, .start = main_thread->now,
                                                 .name = &domain, .gtid = main_thread->gtid});
            main_thread->now += rng_range(&g->rng, 1000, 3000);
        }
    }
}

/* Host events are dealt to threads in turn; each thread's quota decides how its NVTX ranges spread. */
static void setup_quotas(struct gen *g)
{
    const struct config *c = g->cfg;
    g->events_total = c->kernels + c->memcpys + c->memsets + c->other_api + c->osrt_calls;
    g->gpu_ops_left = c->kernels + c->memcpys + c->memsets;
    g->zero_durations_left = min64(c->zero_durations, g->gpu_ops_left);
    for (int t = 0; t < g->nthreads; t++) {
        struct thread *th = &g->threads[t];
        th->events_left = g->events_total / g->nthreads + (t < g->events_total % g->nthreads);
        th->ranges_left = c->nvtx_ranges / g->nthreads + (t < c->nvtx_ranges % g->nthreads);
    }
}

static void setup(struct gen *g)
{
    const struct config *c = g->cfg;
    for (size_t i = 0; i < COUNT_OF(RESERVED_STRINGS); i++)
        intern(g, RESERVED_STRINGS[i]);
    if (c->enums)
        write_enum_tables();
    write_metadata(g);
    setup_processes(g);
    g->lane_free = xcalloc((size_t)(c->overlap ? g->ncontexts * c->streams : c->devices), sizeof(int64_t));
    g->device_busy_until = xcalloc((size_t)c->devices, sizeof(int64_t));
    g->next_osrt_callchain = 1;
    g->next_migration_address = INT64_C(0x7f5a40000000);
    write_processes(g);
    setup_api_names(g);
    setup_kernel_names(g);
    setup_kernel_body(g);
    setup_frame_strings(g);
    setup_nvtx_strings(g);
    setup_quotas(g);
    launch_ranges_setup(g);
    for (int pi = 0; pi < c->processes; pi++)
        write_process_prologue(g, pi);
}

/* ======================================================================================= graphics */
/* Graphics API rows (--vulkan, --opengl, --dx11, --dx12), written after the CUDA rows from a random
 * stream of their own, so that these options only add rows. Each thread records frames: a "frame"
 * debug range around passes, each a debug range around a few draw calls.
 *  - Vulkan: VK_EXT_debug_utils labels are a begin call (with the label text) and an end call (no
 *    text) in VULKAN_DEBUG_API that share a correlationId; the draws and submits are VULKAN_API rows
 *    (class 53), with now and then an object creation (class 60); on submit the GPU executes each
 *    label as a VULKAN_WORKLOAD row with the text, and the submit itself as a row without one.
 *  - OpenGL: each KHR_debug group is one KHR_DEBUG_EVENTS row on the CPU (event type 62) and one on
 *    the GPU (63), plus a marker (52) per frame; the "ui" pass pushes an empty message (no textId,
 *    named by its id), and the capture ends inside one more frame, whose group has no end.
 *  - D3D11: PIX events as begin and end calls in D3D11_PIX_DEBUG_API, and a SetMarker per frame.
 *  - D3D12: the same in D3D12_PIX_DEBUG_API on a command list, and DX12_WORKLOAD rows on the GPU.
 * The "empty pass" has no draws and takes no GPU time. */

enum gfx_api { GFX_VULKAN, GFX_OPENGL, GFX_DX11, GFX_DX12, GFX_APIS };

enum {
    EVENT_CLASS_DX12_WORKLOAD = 42,
    EVENT_CLASS_VULKAN_API = 53,
    EVENT_CLASS_VULKAN_WORKLOAD = 54,
    EVENT_CLASS_VULKAN_CREATE_OBJECT = 60,
    EVENT_CLASS_VULKAN_DEBUG_API = 66,
    EVENT_CLASS_VULKAN_BATCH_WORKLOAD = 93,
};
enum { KHR_DEBUG_MARK = 52, KHR_DEBUG_PUSH_POP = 62, KHR_DEBUG_GPU_PUSH_POP = 63 }; /* ENUM_NSYS_EVENT_TYPE */
enum { GL_SOURCE_APPLICATION = 33354, GL_TYPE_MARKER = 33384, GL_TYPE_PUSH_GROUP = 33385,
       GL_SEVERITY_NOTIFICATION = 33387 };
enum { D3D12_LIST_DIRECT = 0 };

#define GFX_FRAME_LABEL "frame"
#define GFX_EMPTY_PASS 5 /* no draws, no GPU time */
#define GFX_UI_PASS 4    /* OpenGL: pushed with an empty message */
static const char *const GFX_PASSES[] = {"shadow pass, cascade 0", "gbuffer", "lighting", "post: bloom", "ui",
                                         "empty pass"};
static const char *const VK_DRAWS[] = {"vkCmdBindPipeline", "vkCmdBindDescriptorSets", "vkCmdDraw",
                                       "vkCmdDrawIndexed", "vkCmdPushConstants"};
static const char *const VK_FRAME_CALLS[] = {"vkAcquireNextImageKHR", "vkWaitForFences", "vkResetFences",
                                             "vkBeginCommandBuffer", "vkEndCommandBuffer", "vkQueueSubmit",
                                             "vkQueuePresentKHR"};
enum { VK_ACQUIRE, VK_WAIT, VK_RESET, VK_BEGIN_CB, VK_END_CB, VK_SUBMIT, VK_PRESENT, VK_FRAME_CALL_COUNT };
static const char *const VK_CREATE_CALLS[] = {"vkCreateBuffer", "vkAllocateMemory", "vkCreateImageView"};

#define GFX_MAX_LABELS 8

/* One debug range of a frame: its text, its correlationId and its CPU span. */
struct gfx_label {
    int pass; /* -1: the frame */
    int64_t corr;
    int64_t start, end; /* CPU: end of the begin call, start of the end call */
};

struct gfx_frame {
    struct gfx_label labels[GFX_MAX_LABELS];
    int n;
    int64_t number; /* from 1 */
};

struct gfx_gen {
    struct gen *g;
    struct rng rng;
    enum gfx_api api;
    struct table_writer w_vk_api, w_vk_debug, w_vk_workload, w_khr, w_d3d11_pix, w_d3d12_pix, w_dx12_workload;
    int64_t frame_text, pass_text[COUNT_OF(GFX_PASSES)];
    int64_t vk_draws[COUNT_OF(VK_DRAWS)], vk_frame[VK_FRAME_CALL_COUNT], vk_create[COUNT_OF(VK_CREATE_CALLS)];
    int64_t vk_begin_label, vk_end_label, dx_begin, dx_end, dx_marker, dx12_execute, dx12_list_name;
    int64_t marker_text;
    int64_t next_vk_api_id;
    int64_t *gpu_free; /* per process: when its GPU queue is next free */
};

static int64_t gfx_text(const struct gfx_gen *x, int pass) { return pass < 0 ? x->frame_text : x->pass_text[pass]; }

static void gfx_intern(struct gfx_gen *x)
{
    struct gen *g = x->g;
    x->frame_text = intern(g, GFX_FRAME_LABEL);
    for (size_t i = 0; i < COUNT_OF(GFX_PASSES); i++)
        x->pass_text[i] = intern(g, GFX_PASSES[i]);
    for (size_t i = 0; i < COUNT_OF(VK_DRAWS); i++)
        x->vk_draws[i] = intern(g, VK_DRAWS[i]);
    for (size_t i = 0; i < VK_FRAME_CALL_COUNT; i++)
        x->vk_frame[i] = intern(g, VK_FRAME_CALLS[i]);
    for (size_t i = 0; i < COUNT_OF(VK_CREATE_CALLS); i++)
        x->vk_create[i] = intern(g, VK_CREATE_CALLS[i]);
    x->vk_begin_label = intern(g, "vkCmdBeginDebugUtilsLabelEXT");
    x->vk_end_label = intern(g, "vkCmdEndDebugUtilsLabelEXT");
    x->dx_begin = intern(g, "PIXBeginEvent");
    x->dx_end = intern(g, "PIXEndEvent");
    x->dx_marker = intern(g, "PIXSetMarker");
    x->dx12_execute = intern(g, "ExecuteCommandLists");
    x->dx12_list_name = intern(g, "main command list");
    x->marker_text = intern(g, "present");
}

/* ---- rows ---- */

static int64_t gfx_context(const struct thread *th) { return 0x5a000 + th->process * 0x100; }

static void vk_api_row(struct gfx_gen *x, struct thread *th, int64_t dur, int event_class, int64_t name,
                       int64_t corr)
{
    struct table_writer *w = &x->w_vk_api;
    row_begin(x->g->cfg, w);
    put_int(w, x->next_vk_api_id++);
    put_int(w, th->now);
    put_int(w, th->now + dur);
    put_int(w, event_class);
    put_int(w, (int64_t)th->gtid);
    put_int(w, corr);
    put_int(w, corr);
    put_int(w, name);
    put_int(w, gfx_context(th));
    row_end(w);
    th->now += dur;
}

/* A begin call (text >= 0) or an end call (text < 0) of a debug range, on the CPU. */
static void debug_call_row(struct gfx_gen *x, const struct thread *th, int64_t start, int64_t end, int64_t corr,
                           int64_t text, int64_t frame)
{
    const struct process *p = &x->g->procs[th->process];
    struct table_writer *w;
    switch (x->api) {
    case GFX_VULKAN:
        w = &x->w_vk_debug;
        row_begin(x->g->cfg, w);
        put_int(w, start);
        put_int(w, end);
        put_int(w, EVENT_CLASS_VULKAN_DEBUG_API);
        put_int(w, (int64_t)th->gtid);
        put_int(w, corr);
        put_int(w, corr);
        put_int(w, text >= 0 ? x->vk_begin_label : x->vk_end_label);
        put_int(w, gfx_context(th));
        put_int_or_null(w, text >= 0, NVTX_GREEN);
        put_int_or_null(w, text >= 0, text);
        break;
    case GFX_DX11:
    case GFX_DX12:
        w = x->api == GFX_DX11 ? &x->w_d3d11_pix : &x->w_d3d12_pix;
        row_begin(x->g->cfg, w);
        put_int(w, start);
        put_int(w, end);
        put_int(w, (int64_t)th->gtid);
        put_int(w, corr);
        put_int(w, corr);
        put_int(w, text == x->marker_text ? x->dx_marker : text >= 0 ? x->dx_begin : x->dx_end);
        put_int(w, gfx_context(th));
        put_int(w, frame);
        put_int_or_null(w, text >= 0, NVTX_GREEN);
        put_int_or_null(w, text >= 0, text);
        if (x->api == GFX_DX12) {
            put_int(w, D3D12_LIST_DIRECT);
            put_int(w, x->dx12_list_name);
            put_int(w, (int64_t)(p->gpid | 0x7ff6a000));
        }
        break;
    case GFX_OPENGL:
    case GFX_APIS:
    default: fail("internal error: no debug calls for this API");
    }
    row_end(w);
}

/* A KHR_debug group (text < 0: pushed with an empty message) or marker on the CPU or GPU. */
static void khr_row(struct gfx_gen *x, const struct thread *th, int type, int64_t start, bool ended, int64_t end,
                    int64_t text, int64_t id, int64_t corr)
{
    struct table_writer *w = &x->w_khr;
    row_begin(x->g->cfg, w);
    put_int(w, type);
    put_int(w, start);
    put_int_or_null(w, ended, end);
    put_int_or_null(w, text >= 0, text);
    put_int(w, (int64_t)th->gtid);
    put_int(w, GL_SOURCE_APPLICATION);
    put_int(w, type == KHR_DEBUG_MARK ? GL_TYPE_MARKER : GL_TYPE_PUSH_GROUP);
    put_int(w, id);
    put_int(w, GL_SEVERITY_NOTIFICATION);
    put_int(w, corr);
    put_int(w, 1 + th->process);
    row_end(w);
}

/* A GPU workload: a debug range (text >= 0) or a submit without text. */
static void workload_row(struct gfx_gen *x, const struct thread *th, int64_t start, int64_t end, int64_t corr,
                         int64_t name, int64_t text, int64_t frame)
{
    const struct process *p = &x->g->procs[th->process];
    int64_t gpu = th->process % x->g->cfg->devices;
    struct table_writer *w;
    if (x->api == GFX_VULKAN) {
        w = &x->w_vk_workload;
        row_begin(x->g->cfg, w);
        put_int(w, start);
        put_int(w, end);
        put_int(w, text >= 0 ? EVENT_CLASS_VULKAN_WORKLOAD : EVENT_CLASS_VULKAN_BATCH_WORKLOAD);
        put_int(w, (int64_t)th->gtid);
        put_int(w, corr);
        put_int(w, corr);
        put_int(w, name);
        put_int(w, gpu);
        put_int(w, gfx_context(th));
        put_int_or_null(w, text >= 0, NVTX_GREEN);
        put_int_or_null(w, text >= 0, text);
    } else {
        w = &x->w_dx12_workload;
        row_begin(x->g->cfg, w);
        put_int(w, start);
        put_int(w, end);
        put_int(w, EVENT_CLASS_DX12_WORKLOAD);
        put_int(w, (int64_t)th->gtid);
        put_int(w, corr);
        put_int(w, corr);
        put_int(w, name);
        put_int(w, gfx_context(th));
        put_int(w, frame);
        put_int(w, gpu);
        put_int_or_null(w, text >= 0, NVTX_GREEN);
        put_int_or_null(w, text >= 0, text);
        put_int(w, D3D12_LIST_DIRECT);
        put_int(w, x->dx12_list_name);
        put_int(w, (int64_t)(p->gpid | 0x7ff6a000));
    }
    row_end(w);
    note_time(x->g, end);
}

/* ---- a frame ---- */

static int64_t gfx_call_duration(struct gfx_gen *x) { return rng_range(&x->rng, 800, 4000); }

static void vk_call(struct gfx_gen *x, struct thread *th, int64_t name)
{
    vk_api_row(x, th, gfx_call_duration(x), EVENT_CLASS_VULKAN_API, name, x->g->procs[th->process].next_corr++);
}

/* Opens a debug range: the begin call (Vulkan, D3D); OpenGL writes its group when it closes. */
static struct gfx_label *label_begin(struct gfx_gen *x, struct thread *th, struct gfx_frame *f, int pass)
{
    struct gfx_label *l = &f->labels[f->n++];
    l->pass = pass;
    l->corr = x->g->procs[th->process].next_corr++;
    int64_t call = gfx_call_duration(x);
    if (x->api != GFX_OPENGL)
        debug_call_row(x, th, th->now, th->now + call, l->corr, gfx_text(x, pass), f->number);
    th->now += call;
    l->start = th->now;
    return l;
}

static void label_end(struct gfx_gen *x, struct thread *th, const struct gfx_frame *f, struct gfx_label *l)
{
    l->end = th->now;
    int64_t call = gfx_call_duration(x);
    if (x->api == GFX_OPENGL) {
        int64_t text = l->pass == GFX_UI_PASS ? -1 : gfx_text(x, l->pass);
        khr_row(x, th, KHR_DEBUG_PUSH_POP, l->start, true, l->end, text, 1 + (l->pass + 1) * 100, l->corr);
    } else {
        debug_call_row(x, th, th->now, th->now + call, l->corr, -1, f->number);
    }
    th->now += call;
    note_time(x->g, th->now);
}

static void record_pass(struct gfx_gen *x, struct thread *th, struct gfx_frame *f, int pass)
{
    struct gfx_label *l = label_begin(x, th, f, pass);
    int64_t draws = pass == GFX_EMPTY_PASS ? 0 : rng_range(&x->rng, 1, 4);
    for (int64_t d = 0; d < draws; d++) {
        if (x->api == GFX_VULKAN)
            vk_call(x, th, x->vk_draws[rng_below(&x->rng, (int64_t)COUNT_OF(VK_DRAWS))]);
        else
            th->now += gfx_call_duration(x);
    }
    th->now += rng_range(&x->rng, 200, 3000);
    label_end(x, th, f, l);
}

/* The GPU runs the frame's ranges one after another, the frame around its passes. */
static void submit_frame(struct gfx_gen *x, struct thread *th, const struct gfx_frame *f, int64_t corr)
{
    int64_t *free_at = &x->gpu_free[th->process];
    int64_t t = max64(*free_at, th->now + rng_range(&x->rng, 20000, 60000)), frame_start = t;
    for (int i = 1; i < f->n; i++) {
        const struct gfx_label *l = &f->labels[i];
        int64_t dur = l->pass == GFX_EMPTY_PASS ? 0 : rng_range(&x->rng, 30000, 900000);
        if (x->api == GFX_OPENGL) {
            int64_t text = l->pass == GFX_UI_PASS ? -1 : gfx_text(x, l->pass);
            khr_row(x, th, KHR_DEBUG_GPU_PUSH_POP, t, true, t + dur, text, 1 + (l->pass + 1) * 100, l->corr);
        } else if (x->api != GFX_DX11) {
            workload_row(x, th, t, t + dur, l->corr, gfx_text(x, l->pass), gfx_text(x, l->pass), f->number);
        }
        t += dur;
    }
    const struct gfx_label *frame = &f->labels[0];
    if (x->api == GFX_OPENGL)
        khr_row(x, th, KHR_DEBUG_GPU_PUSH_POP, frame_start, true, t, x->frame_text, 1, frame->corr);
    else if (x->api != GFX_DX11) {
        workload_row(x, th, frame_start, t, frame->corr, x->frame_text, x->frame_text, f->number);
        workload_row(x, th, frame_start, t, corr, x->api == GFX_VULKAN ? x->vk_frame[VK_SUBMIT] : x->dx12_execute,
                     -1, f->number);
    }
    *free_at = t + rng_range(&x->rng, 5000, 50000);
    note_time(x->g, *free_at);
}

/* The frame's markers: a present marker (OpenGL, D3D) and Vulkan's frame calls around the recording. */
static void frame_marker(struct gfx_gen *x, struct thread *th, const struct gfx_frame *f)
{
    int64_t corr = x->g->procs[th->process].next_corr++, dur = gfx_call_duration(x);
    if (x->api == GFX_OPENGL)
        khr_row(x, th, KHR_DEBUG_MARK, th->now, false, 0, x->marker_text, 2, corr);
    else if (x->api == GFX_DX11 || x->api == GFX_DX12)
        debug_call_row(x, th, th->now, th->now + dur, corr, x->marker_text, f->number);
    th->now += dur;
}

/* One frame of at most `budget` debug ranges on the thread; returns how many it recorded. */
static int record_frame(struct gfx_gen *x, struct thread *th, int64_t number, int64_t budget)
{
    struct gfx_frame f = {.number = number};
    bool vk = x->api == GFX_VULKAN;
    if (vk) {
        vk_call(x, th, x->vk_frame[VK_ACQUIRE]);
        vk_call(x, th, x->vk_frame[VK_WAIT]);
        vk_call(x, th, x->vk_frame[VK_RESET]);
        vk_call(x, th, x->vk_frame[VK_BEGIN_CB]);
        if (number <= x->g->nthreads || rng_one_in(&x->rng, 6)) /* each thread sets up in its first frame */
            vk_api_row(x, th, rng_range(&x->rng, 5000, 60000), EVENT_CLASS_VULKAN_CREATE_OBJECT,
                       x->vk_create[rng_below(&x->rng, (int64_t)COUNT_OF(VK_CREATE_CALLS))],
                       x->g->procs[th->process].next_corr++);
    }
    struct gfx_label *frame = label_begin(x, th, &f, -1);
    for (int pass = 0; pass < (int)COUNT_OF(GFX_PASSES) && f.n < budget; pass++)
        if (pass < 2 || rng_one_in(&x->rng, 2) || pass == GFX_EMPTY_PASS)
            record_pass(x, th, &f, pass);
    label_end(x, th, &f, frame);
    int64_t submit_corr = x->g->procs[th->process].next_corr;
    if (vk) {
        vk_call(x, th, x->vk_frame[VK_END_CB]);
        vk_call(x, th, x->vk_frame[VK_SUBMIT]);
    }
    submit_frame(x, th, &f, submit_corr);
    if (vk)
        vk_call(x, th, x->vk_frame[VK_PRESENT]);
    frame_marker(x, th, &f);
    note_time(x->g, th->now);
    th->now += rng_range(&x->rng, 100000, 2000000);
    return f.n;
}

/* OpenGL: the capture ends inside a frame, whose group has no end yet. */
static void write_open_group(struct gfx_gen *x, struct thread *th)
{
    int64_t corr = x->g->procs[th->process].next_corr++;
    th->now += gfx_call_duration(x);
    khr_row(x, th, KHR_DEBUG_PUSH_POP, th->now, false, 0, x->frame_text, 1, corr);
}

/* `ranges` debug ranges on the CPU, frame by frame, dealt to the threads in turn. */
static void write_api_frames(struct gfx_gen *x, int64_t ranges)
{
    struct gen *g = x->g;
    int64_t number = 1;
    for (int64_t done = 0; done < ranges; number++)
        done += record_frame(x, &g->threads[(number - 1) % g->nthreads], number, ranges - done);
    if (x->api == GFX_OPENGL && ranges > 0)
        write_open_group(x, &g->threads[0]);
}

static void write_graphics(struct gen *g)
{
    const struct config *c = g->cfg;
    const int64_t ranges[GFX_APIS] = {c->vulkan, c->opengl, c->dx11, c->dx12};
    if (!c->vulkan && !c->opengl && !c->dx11 && !c->dx12)
        return;
    struct gfx_gen x = {
        .g = g,
        .w_vk_api = WRITER("VULKAN_API"),
        .w_vk_debug = WRITER("VULKAN_DEBUG_API"),
        .w_vk_workload = WRITER("VULKAN_WORKLOAD"),
        .w_khr = WRITER("KHR_DEBUG_EVENTS"),
        .w_d3d11_pix = WRITER("D3D11_PIX_DEBUG_API"),
        .w_d3d12_pix = WRITER("D3D12_PIX_DEBUG_API"),
        .w_dx12_workload = WRITER("DX12_WORKLOAD"),
        .next_vk_api_id = 1,
    };
    rng_seed(&x.rng, c->seed ^ UINT64_C(0x67726170686963));
    x.gpu_free = xcalloc((size_t)c->processes, sizeof *x.gpu_free);
    gfx_intern(&x);
    for (int api = 0; api < GFX_APIS; api++) {
        x.api = (enum gfx_api)api;
        write_api_frames(&x, ranges[api]);
    }
    struct table_writer *writers[] = {&x.w_vk_api, &x.w_vk_debug, &x.w_vk_workload, &x.w_khr,
                                      &x.w_d3d11_pix, &x.w_d3d12_pix, &x.w_dx12_workload};
    for (size_t i = 0; i < COUNT_OF(writers); i++)
        writer_close(writers[i]);
    free(x.gpu_free);
}

/* ======================================================================================= DX12 memory operations */

/* --dx12-mem: D3D12 calls (DX12_API) and the memory operations they make (DX12_MEMORY_OPERATION),
 * one call after another over the threads in turn, from 1 ms on.  Durations are whole
 * microseconds, so that equal ones are common.  What a call is picks the heap type, heap flags and
 * CPU page property at random, so every combination of them comes up with a few hundred calls. */

enum { EVENT_CLASS_DX12_API = 41 };

/* What a call does to memory. */
enum dxm_kind { DXM_CREATE, DXM_MAP, DXM_SUBRESOURCE, DXM_NONE };

struct dxm_call {
    const char *name;
    enum dxm_kind kind;
};

/* ID3D12Device4's methods and the ID3D12Device::*Placed* one share the memory rows of the plain ones. */
static const struct dxm_call DXM_CALLS[] = {
    {"ID3D12Device::CreateHeap", DXM_CREATE},
    {"ID3D12Device::CreateCommittedResource", DXM_CREATE},
    {"ID3D12Device4::CreateHeap1", DXM_CREATE},
    {"ID3D12Device4::CreateCommittedResource1", DXM_CREATE},
    {"ID3D12Device::CreatePlacedResource", DXM_CREATE},
    {"ID3D12Resource::Map", DXM_MAP},
    {"ID3D12Resource::Unmap", DXM_MAP},
    {"ID3D12Resource::ReadFromSubresource", DXM_SUBRESOURCE},
    {"ID3D12Resource::WriteToSubresource", DXM_SUBRESOURCE},
    {"ID3D12GraphicsCommandList::Close", DXM_NONE},
};

enum {
    D3D12_HEAP_TYPE_DEFAULT = 1, /* ENUM_D3D12_HEAP_TYPE: 1..4 */
    D3D12_HEAP_TYPE_CUSTOM = 4,
    D3D12_CPU_PAGE_UNKNOWN = 0, /* ENUM_D3D12_PAGE_PROPERTY: 0..3 */
    D3D12_CPU_PAGE_NOT_AVAILABLE = 1,
    D3D12_CPU_PAGE_WRITE_BACK = 3,
    D3D12_HEAP_FLAG_CREATE_NOT_ZEROED = 0x1000,
};

/* Flags a heap is created with; NOT_ZEROED is the one that spares the zeroing. */
static const int64_t DXM_HEAP_FLAGS[] = {0, 4, 64, 128, D3D12_HEAP_FLAG_CREATE_NOT_ZEROED,
                                         D3D12_HEAP_FLAG_CREATE_NOT_ZEROED | 4};

struct dxm_gen {
    struct gen *g;
    struct rng rng;
    struct table_writer api, ops;
    int64_t names[COUNT_OF(DXM_CALLS)];
};

/* One memory row: the call's heap, with a CPU page of its own only on custom heaps. */
static void dxm_op_row(struct dxm_gen *x, int64_t call_id, enum dxm_kind kind, int64_t subresource)
{
    const struct config *c = x->g->cfg;
    struct table_writer *w = &x->ops;
    int64_t heap = rng_range(&x->rng, D3D12_HEAP_TYPE_DEFAULT, D3D12_HEAP_TYPE_CUSTOM);
    int64_t page = heap == D3D12_HEAP_TYPE_CUSTOM
                       ? rng_range(&x->rng, D3D12_CPU_PAGE_NOT_AVAILABLE, D3D12_CPU_PAGE_WRITE_BACK)
                       : D3D12_CPU_PAGE_UNKNOWN;
    int64_t range_start = 256 * rng_below(&x->rng, 16);
    /* An empty range (start == end) says the CPU reads or writes nothing. */
    int64_t range_end = rng_one_in(&x->rng, 4) ? range_start : range_start + 256 * rng_range(&x->rng, 1, 64);
    row_begin(c, w);
    put_int_or_null(w, !rng_one_in(&x->rng, 16), rng_below(&x->rng, c->devices));
    put_int_or_null(w, kind != DXM_CREATE, range_start);
    put_int_or_null(w, kind != DXM_CREATE, range_end);
    put_int_or_null(w, kind != DXM_CREATE, subresource);
    put_int(w, heap);
    put_int_or_null(w, !rng_one_in(&x->rng, 12), DXM_HEAP_FLAGS[rng_below(&x->rng, COUNT_OF(DXM_HEAP_FLAGS))]);
    put_int(w, page);
    put_int(w, 0);
    put_int(w, call_id);
    row_end(w);
}

static void dxm_call_row(struct dxm_gen *x, const struct thread *th, int64_t id, size_t call, int64_t start,
                         int64_t end)
{
    struct table_writer *w = &x->api;
    row_begin(x->g->cfg, w);
    put_int(w, id);
    put_int(w, start);
    put_int(w, end);
    put_int(w, EVENT_CLASS_DX12_API);
    put_int(w, (int64_t)th->gtid);
    put_null(w);
    put_null(w);
    put_int(w, x->names[call]);
    put_int(w, 0x1000 + (int64_t)call);
    put_null(w);
    put_null(w);
    put_null(w);
    put_null(w);
    put_null(w);
    put_int(w, 0x7ff6b0000000 + (int64_t)call);
    row_end(w);
}

static void gen_dx12_mem(struct gen *g)
{
    const struct config *c = g->cfg;
    if (c->dx12_mem_calls == 0)
        return;
    struct dxm_gen x = {
        .g = g,
        .api = WRITER("DX12_API"),
        .ops = WRITER("DX12_MEMORY_OPERATION"),
    };
    rng_seed(&x.rng, c->seed ^ UINT64_C(0x6478313278656d));
    for (size_t i = 0; i < COUNT_OF(DXM_CALLS); i++)
        x.names[i] = intern(g, DXM_CALLS[i].name);
    int64_t t = 1000000;
    for (int64_t id = 1; id <= c->dx12_mem_calls; id++) {
        size_t call = (size_t)rng_below(&x.rng, COUNT_OF(DXM_CALLS));
        int64_t end = t + 1000 * rng_range(&x.rng, 1, 40);
        dxm_call_row(&x, &g->threads[(id - 1) % g->nthreads], id, call, t, end);
        enum dxm_kind kind = DXM_CALLS[call].kind;
        int64_t subresources = kind == DXM_NONE ? 0 : kind != DXM_CREATE && rng_one_in(&x.rng, 6) ? 2 : 1;
        for (int64_t s = 0; s < subresources; s++)
            dxm_op_row(&x, id, kind, s);
        note_time(g, end);
        t = end + rng_range(&x.rng, 2000, 30000);
    }
    writer_close(&x.api);
    writer_close(&x.ops);
}

/* ======================================================================================= end of DX12 memory operations */

/* ======================================================================================= run */

static void report_progress(const struct gen *g, int64_t done)
{
    if (g->cfg->quiet || g->events_total < 1000000)
        return;
    int64_t step = g->events_total / 10;
    if (done % step == 0 || done == g->events_total)
        fprintf(stderr, "nsysgen: %s: %3" PRId64 "%% (%" PRId64 " of %" PRId64 " host events)\n", g_out.shown,
                done * 100 / g->events_total, done, g->events_total);
}

static void run_host_events(struct gen *g)
{
    const struct config *c = g->cfg;
    int64_t left[EV_KINDS] = {c->kernels, c->memcpys, c->memsets, c->other_api, c->osrt_calls};
    for (int64_t j = 0; j < g->events_total; j++) {
        struct thread *th = &g->threads[j % g->nthreads];
        nvtx_before_event(g, th);
        enum event_kind kind = (enum event_kind)pick_by_remaining(&g->rng, left, EV_KINDS);
        launch_ranges_before(g, th, kind);
        switch (kind) {
        case EV_KERNEL: emit_kernel_launch(g, th); break;
        case EV_MEMCPY: emit_memcpy(g, th); break;
        case EV_MEMSET: emit_memset(g, th); break;
        case EV_OTHER_API: emit_other_api(g, th); break;
        case EV_OSRT: emit_osrt(g, th); break;
        case EV_KINDS:
        default: fail("internal error: no event kind left");
        }
        th->events_left--;
        launch_ranges_after(g, th, kind);
        nvtx_after_event(g, th);
        th->now += host_gap(g);
        report_progress(g, j + 1);
    }
    launch_ranges_finish(g);
    for (int t = 0; t < g->nthreads; t++)
        nvtx_finish_thread(g, &g->threads[t]);
}

static void write_analysis_details(struct gen *g)
{
    int64_t duration = g->last_time + 5000000;
    struct table_writer *w = &g->w_analysis;
    row_begin(g->cfg, w);
    put_int(w, (int64_t)GLOBAL_VM_BITS);
    put_int(w, duration);
    put_int(w, 0);
    put_int(w, duration);
    row_end(w);
}

/* ======================================================================================= MPI, network, NvVideo */
/* --mpi, --net and --nvvideo add the tables of MPI tracing (--trace=mpi), of NIC and InfiniBand switch
 * metrics (--nic-metrics, --ib-switch-metrics) and of NvVideo tracing. Their rows come from a random
 * stream of their own and are written after the host events, so these options only add tables and
 * StringIds rows: every other row of the export is the same with or without them. */

#define MPI_COMM_WORLD_HANDLE INT64_C(0x44000000) /* as MPICH numbers it */
#define MPI_FIRST_REQUEST INT64_C(0x98000000)
#define NET_SAMPLE_NS INT64_C(1000000) /* --nic-metrics samples every millisecond */
#define NET_METRIC_GLOBAL_ID (GLOBAL_VM_BITS | (UINT64_C(0x4E) << 40))

/* One MPI call pattern: its name, the table it lands in, and its duration model. */
enum mpi_table { MPI_T_P2P, MPI_T_COLL, MPI_T_START_WAIT, MPI_T_OTHER };
enum mpi_shape {
    MPI_SHAPE_PLAIN,    /* no peer, no size */
    MPI_SHAPE_SEND,     /* to the next rank */
    MPI_SHAPE_RECV,     /* from the previous rank */
    MPI_SHAPE_SENDRECV, /* both halves: one row when they agree, two when they differ */
    MPI_SHAPE_ROOTED,   /* a collective from root 0: send size only */
    MPI_SHAPE_REDUCE,   /* a collective with send and receive sizes */
    MPI_SHAPE_REQUEST,  /* a start/wait on a request handle */
};

struct mpi_call {
    const char *name;
    enum mpi_table table;
    enum mpi_shape shape;
    bool nonblocking;
    int64_t base_ns;
    int weight;
};

static const struct mpi_call MPI_CALLS[] = {
    {"MPI_Isend", MPI_T_P2P, MPI_SHAPE_SEND, true, 2048, 8},
    {"MPI_Irecv", MPI_T_P2P, MPI_SHAPE_RECV, true, 1536, 8},
    {"MPI_Waitall", MPI_T_START_WAIT, MPI_SHAPE_PLAIN, false, 48000, 6},
    {"MPI_Wait", MPI_T_START_WAIT, MPI_SHAPE_REQUEST, false, 24000, 3},
    {"MPI_Test", MPI_T_START_WAIT, MPI_SHAPE_REQUEST, false, 512, 2},
    {"MPI_Allreduce", MPI_T_COLL, MPI_SHAPE_REDUCE, false, 36000, 5},
    {"MPI_Bcast", MPI_T_COLL, MPI_SHAPE_ROOTED, false, 18000, 3},
    {"MPI_Reduce", MPI_T_COLL, MPI_SHAPE_REDUCE, false, 30000, 2},
    {"MPI_Barrier", MPI_T_COLL, MPI_SHAPE_PLAIN, false, 12000, 2},
    {"MPI_Sendrecv", MPI_T_P2P, MPI_SHAPE_SENDRECV, false, 42000, 3},
    {"MPI_Send", MPI_T_P2P, MPI_SHAPE_SEND, false, 16000, 2},
    {"MPI_Recv", MPI_T_P2P, MPI_SHAPE_RECV, false, 20000, 2},
    {"MPI_Comm_rank", MPI_T_OTHER, MPI_SHAPE_PLAIN, false, 256, 1},
};

/* Message sizes: tiny ones show as 0.000 MB, 1500 and 2500000 sit on rounding ties of the MB column. */
static const int64_t MPI_BYTES[] = {0, 8, 1500, 4096, 65536, 1048576, 2500000, 8388608};

struct nic_desc {
    int64_t guid, device_id, link_layer;
    const char *name;
};

/* Device 4133 is newer than the labels of nsys 2024.2.3, which leaves its rows out. */
static const struct nic_desc NICS[] = {
    {INT64_C(0x1070fd0300a1b2c4), 4123, 2, "mlx5_0"},
    {INT64_C(0x1070fd0300a1b2c5), 4129, 2, "mlx5_1"},
    {INT64_C(0x0c42a10300f0e1d2), 4125, 1, "mlx5_2"},
    {INT64_C(0x0c42a10300f0e1d3), 4133, 2, "mlx5_3"},
};

/* Switch GUIDs: the first has the top bit set, so it is negative as an SQLite integer. */
static const uint64_t IB_SWITCHES[] = {UINT64_C(0xb8cef60300e8f2a0), UINT64_C(0x0002c90300a0b0c0)};

struct net_metric {
    const char *name, *description, *unit;
};

static const struct net_metric NIC_METRICS[] = {
    {"IB: Bytes sent", "Number of bytes sent through all NIC ports", "bytes/ms"},
    {"IB: Bytes received", "Number of bytes received by all NIC ports", "bytes/ms"},
    {"IB: Packets sent", "Number of packets sent through all NIC ports", "packets/ms"},
    {"IB: Send waits", "Number of ticks during which data was ready but not sent", "ticks/ms"},
};

static const struct net_metric SWITCH_METRICS[] = {
    {"IB: Bytes sent", "Number of bytes sent through all switch ports", "bytes/ms"},
    {"IB: Bytes received", "Number of bytes received by all switch ports", "bytes/ms"},
    {"IB: Send waits", "Number of ticks during which data was ready but not sent", "ticks/ms"},
};

/* Send-wait rates: mostly quiet, with bursts around and on the default threshold of 10000. */
static const int64_t SEND_WAIT_RATES[] = {0, 0, 0, 12, 480, 3100, 9999, 10000, 10001, 15000, 42000, 125000};

struct nvvideo_call {
    const char *name;
    int api; /* 0 encoder, 1 decoder, 2 JPEG */
    int64_t base_ns;
    int weight;
};

static const struct nvvideo_call NVVIDEO_CALLS[] = {
    {"nvEncEncodePicture", 0, 96000, 8},   {"nvEncLockBitstream", 0, 24000, 6},
    {"nvEncUnlockBitstream", 0, 4096, 6},  {"nvEncInitializeEncoder", 0, 2400000, 1},
    {"cuvidDecodePicture", 1, 64000, 8},   {"cuvidMapVideoFrame64", 1, 32000, 6},
    {"cuvidUnmapVideoFrame64", 1, 3072, 6}, {"cuvidCreateDecoder", 1, 1800000, 1},
    {"nvjpegDecode", 2, 128000, 4},        {"nvjpegJpegStateCreate", 2, 8192, 1},
};

static const int NVVIDEO_EVENT_CLASS[] = {83, 86, 89}; /* NVENC, NVDEC, nvJPEG */

struct mpi_gen {
    struct gen *g;
    struct rng rng;
    struct table_writer p2p, coll, start_wait, other, ranks;
    struct table_writer nic_metric, ib_metric, nic_map, net_metrics, nic_info;
    struct table_writer nvvideo[3];
    int64_t next_request;
};

static int64_t pick_weighted_index(struct rng *r, const int *weights, size_t n)
{
    int total = 0;
    for (size_t i = 0; i < n; i++)
        total += weights[i];
    int64_t x = rng_below(r, total);
    for (size_t i = 0; i < n; i++) {
        if (x < weights[i])
            return (int64_t)i;
        x -= weights[i];
    }
    return (int64_t)n - 1;
}

/* A duration of few distinct values (ties in the summaries), never zero. */
static int64_t extra_duration(struct rng *r, int64_t base)
{
    return base + 64 * rng_below(r, 8);
}

static void write_mpi_common(struct mpi_gen *x, struct table_writer *w, int64_t start, int64_t end,
                             bool has_end, uint64_t gtid, int64_t text_id)
{
    row_begin(x->g->cfg, w);
    put_int(w, start);
    put_int_or_null(w, has_end, end);
    put_int(w, (int64_t)gtid);
    put_int(w, text_id);
}

struct mpi_event {
    const struct mpi_call *call;
    int64_t start, end;
    bool has_end;
    uint64_t gtid;
    int rank, nranks;
    int64_t tag, bytes, other_bytes;
};

static void write_p2p_row(struct mpi_gen *x, const struct mpi_event *e, int64_t peer, int64_t tag, int64_t bytes)
{
    struct table_writer *w = &x->p2p;
    write_mpi_common(x, w, e->start, e->end, e->has_end, e->gtid, intern(x->g, e->call->name));
    put_int(w, MPI_COMM_WORLD_HANDLE);
    put_int(w, tag);
    put_int(w, peer);
    put_int(w, bytes);
    put_int_or_null(w, e->call->nonblocking, x->next_request);
    row_end(w);
    if (e->call->nonblocking)
        x->next_request++;
}

/* Writes one call's row(s); returns how many rows. */
static int write_mpi_event(struct mpi_gen *x, const struct mpi_event *e)
{
    int next = (e->rank + 1) % e->nranks, prev = (e->rank + e->nranks - 1) % e->nranks;
    int64_t id = intern(x->g, e->call->name);
    struct table_writer *w;
    switch (e->call->shape) {
    case MPI_SHAPE_SEND: write_p2p_row(x, e, next, e->tag, e->bytes); return 1;
    case MPI_SHAPE_RECV: write_p2p_row(x, e, prev, e->tag, e->bytes); return 1;
    case MPI_SHAPE_SENDRECV:
        write_p2p_row(x, e, next, e->tag, e->bytes);
        if (next == prev && e->bytes == e->other_bytes)
            return 1;
        write_p2p_row(x, e, prev, e->tag + 1, e->other_bytes);
        return 2;
    case MPI_SHAPE_ROOTED:
    case MPI_SHAPE_REDUCE:
        w = &x->coll;
        write_mpi_common(x, w, e->start, e->end, e->has_end, e->gtid, id);
        put_int(w, MPI_COMM_WORLD_HANDLE);
        put_int(w, 0);
        put_int(w, e->bytes);
        put_int_or_null(w, e->call->shape == MPI_SHAPE_REDUCE, e->bytes);
        put_null(w);
        row_end(w);
        return 1;
    case MPI_SHAPE_REQUEST:
    case MPI_SHAPE_PLAIN:
    default: break;
    }
    if (e->call->table == MPI_T_COLL) { /* a barrier: no root, no sizes */
        w = &x->coll;
        write_mpi_common(x, w, e->start, e->end, e->has_end, e->gtid, id);
        put_int(w, MPI_COMM_WORLD_HANDLE);
        put_null(w);
        put_null(w);
        put_null(w);
        put_null(w);
    } else if (e->call->table == MPI_T_START_WAIT) {
        w = &x->start_wait;
        write_mpi_common(x, w, e->start, e->end, e->has_end, e->gtid, id);
        put_int_or_null(w, e->call->shape == MPI_SHAPE_REQUEST && x->next_request > MPI_FIRST_REQUEST,
                        x->next_request - 1);
    } else {
        w = &x->other;
        write_mpi_common(x, w, e->start, e->end, e->has_end, e->gtid, id);
    }
    row_end(w);
    return 1;
}

/* Every thread of a rank's process maps to the rank. */
static void write_mpi_ranks(struct mpi_gen *x)
{
    const struct config *c = x->g->cfg;
    if (c->mpi_no_ranks)
        return;
    if (c->mpi_empty_ranks) {
        writer_open(c, &x->ranks); /* the table exists, with no rows */
        return;
    }
    for (int pi = 0; pi < c->processes; pi++)
        for (int t = 0; t < c->threads; t++) {
            row_begin(c, &x->ranks);
            put_int(&x->ranks, (int64_t)x->g->threads[x->g->procs[pi].first_thread + t].gtid);
            put_int(&x->ranks, pi);
            row_end(&x->ranks);
        }
}

/* The rank's thread for a call: mostly the main thread, sometimes a worker (MPI_Init and
 * MPI_Finalize, of weight 0, always run on the main thread). */
static uint64_t mpi_thread(struct mpi_gen *x, int rank)
{
    const struct process *p = &x->g->procs[rank];
    int t = x->g->cfg->threads > 1 && rng_one_in(&x->rng, 6) ? 1 : 0;
    return x->g->threads[p->first_thread + t].gtid;
}

/* One call on every rank at about the same time: ranks run in lockstep, so starts often tie. */
static int64_t mpi_step(struct mpi_gen *x, const struct mpi_call *call, int64_t t, int64_t *rows, int64_t limit)
{
    int n = (int)x->g->cfg->processes;
    int64_t step_end = t;
    struct mpi_event e = {.call = call, .nranks = n, .has_end = true};
    e.tag = rng_below(&x->rng, 8);
    e.bytes = MPI_BYTES[rng_below(&x->rng, (int64_t)COUNT_OF(MPI_BYTES))];
    e.other_bytes = rng_one_in(&x->rng, 3) ? e.bytes : MPI_BYTES[rng_below(&x->rng, (int64_t)COUNT_OF(MPI_BYTES))];
    for (int r = 0; r < n && *rows < limit; r++) {
        e.rank = r;
        e.gtid = call->weight ? mpi_thread(x, r) : x->g->threads[x->g->procs[r].first_thread].gtid;
        e.start = t + 250 * rng_below(&x->rng, 3);
        e.end = e.start + extra_duration(&x->rng, call->base_ns);
        *rows += write_mpi_event(x, &e);
        step_end = max64(step_end, e.end);
    }
    return step_end;
}

static const struct mpi_call MPI_INIT = {"MPI_Init", MPI_T_OTHER, MPI_SHAPE_PLAIN, false, 850000, 0};
static const struct mpi_call MPI_FINALIZE = {"MPI_Finalize", MPI_T_OTHER, MPI_SHAPE_PLAIN, false, 420000, 0};

/* MPI_Init, the calls, MPI_Finalize; rank 0's MPI_Finalize is cut by the end of the capture (no end). */
static void gen_mpi(struct mpi_gen *x)
{
    const struct config *c = x->g->cfg;
    int weights[COUNT_OF(MPI_CALLS)];
    for (size_t i = 0; i < COUNT_OF(MPI_CALLS); i++)
        weights[i] = MPI_CALLS[i].weight;
    x->next_request = MPI_FIRST_REQUEST;
    write_mpi_ranks(x);
    int64_t rows = 0, limit = c->mpi_events - min64(c->mpi_events, 2 * c->processes);
    int64_t t = mpi_step(x, &MPI_INIT, x->g->procs[0].start_time - 2000000, &rows, c->mpi_events);
    while (rows < limit) {
        const struct mpi_call *call = &MPI_CALLS[pick_weighted_index(&x->rng, weights, COUNT_OF(weights))];
        t = mpi_step(x, call, t + 1000 * rng_range(&x->rng, 1, 40), &rows, limit);
    }
    t += 5000;
    for (int r = 0; r < c->processes && rows < c->mpi_events; r++, rows++) {
        struct mpi_event e = {.call = &MPI_FINALIZE, .start = t, .gtid = x->g->threads[x->g->procs[r].first_thread].gtid,
                              .rank = r, .nranks = (int)c->processes};
        e.end = t + extra_duration(&x->rng, MPI_FINALIZE.base_ns);
        e.has_end = r != 0;
        write_mpi_event(x, &e);
    }
    note_time(x->g, t + 1000000);
}

static void write_net_metric_list(struct mpi_gen *x, int64_t list, const struct net_metric *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct table_writer *w = &x->net_metrics;
        row_begin(x->g->cfg, w);
        put_int(w, list);
        put_int(w, (int64_t)i);
        put_text(w, m[i].name);
        put_text(w, m[i].description);
        put_text(w, m[i].unit);
        row_end(w);
    }
}

static void write_nics(struct mpi_gen *x)
{
    const struct config *c = x->g->cfg;
    for (size_t k = 0; k < COUNT_OF(NICS); k++) {
        struct table_writer *w = &x->nic_info;
        row_begin(c, w);
        put_int(w, NICS[k].guid);
        put_text(w, "Active");
        put_int(w, (int64_t)k);
        put_text(w, NICS[k].name);
        put_int(w, NICS[k].device_id);
        put_int(w, 5555); /* NVIDIA / Mellanox */
        put_int(w, NICS[k].link_layer);
        row_end(w);
        if (c->net_no_nic_map)
            continue;
        row_begin(c, &x->nic_map);
        put_int(&x->nic_map, (int64_t)k);
        put_int(&x->nic_map, (int64_t)(NET_METRIC_GLOBAL_ID | k));
        row_end(&x->nic_map);
    }
}

static int64_t metric_value(struct mpi_gen *x, const struct net_metric *m)
{
    if (strcmp(m->unit, "ticks/ms") == 0)
        return SEND_WAIT_RATES[rng_below(&x->rng, (int64_t)COUNT_OF(SEND_WAIT_RATES))];
    if (strcmp(m->unit, "packets/ms") == 0)
        return rng_range(&x->rng, 0, 4000);
    return rng_range(&x->rng, 0, 12000000);
}

static void write_metric_row(struct mpi_gen *x, struct table_writer *w, int64_t start, int64_t end, int64_t gid,
                             int64_t list, int64_t idx, int64_t value)
{
    row_begin(x->g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, gid);
    put_int(w, list);
    put_int(w, idx);
    put_int(w, value);
    row_end(w);
}

/* Every NIC and switch samples every metric each millisecond on a shared clock (starts tie across
 * devices); a sample's end varies by a few ns, and the switches sample a little late now and then. */
static void gen_net(struct mpi_gen *x)
{
    const struct config *c = x->g->cfg;
    write_net_metric_list(x, 0, NIC_METRICS, COUNT_OF(NIC_METRICS));
    write_net_metric_list(x, 1, SWITCH_METRICS, COUNT_OF(SWITCH_METRICS));
    write_nics(x);
    int64_t t0 = x->g->procs[0].start_time - 3 * NET_SAMPLE_NS;
    for (int64_t k = 0; k < c->net_samples; k++) {
        int64_t start = t0 + k * NET_SAMPLE_NS;
        for (size_t n = 0; n < COUNT_OF(NICS); n++) {
            int64_t end = start + NET_SAMPLE_NS + rng_below(&x->rng, 3) * 8;
            for (size_t m = 0; m < COUNT_OF(NIC_METRICS); m++)
                write_metric_row(x, &x->nic_metric, start, end, (int64_t)(NET_METRIC_GLOBAL_ID | n), 0, (int64_t)m,
                                 metric_value(x, &NIC_METRICS[m]));
        }
        for (size_t s = 0; s < COUNT_OF(IB_SWITCHES); s++) {
            int64_t sw_start = start + (rng_one_in(&x->rng, 4) ? 4000 : 0);
            for (size_t m = 0; m < COUNT_OF(SWITCH_METRICS); m++)
                write_metric_row(x, &x->ib_metric, sw_start, sw_start + NET_SAMPLE_NS, (int64_t)IB_SWITCHES[s], 1,
                                 (int64_t)m, metric_value(x, &SWITCH_METRICS[m]));
        }
    }
    note_time(x->g, t0 + (c->net_samples + 1) * NET_SAMPLE_NS);
}

/* Calls dealt to the threads in turn, each on its own clock. */
static void gen_nvvideo(struct mpi_gen *x)
{
    const struct config *c = x->g->cfg;
    int weights[COUNT_OF(NVVIDEO_CALLS)];
    for (size_t i = 0; i < COUNT_OF(NVVIDEO_CALLS); i++)
        weights[i] = NVVIDEO_CALLS[i].weight;
    int64_t *now = xcalloc((size_t)x->g->nthreads, sizeof *now);
    for (int t = 0; t < x->g->nthreads; t++)
        now[t] = x->g->procs[x->g->threads[t].process].start_time + 500000;
    for (int64_t j = 0; j < c->nvvideo_calls; j++) {
        int t = (int)(j % x->g->nthreads);
        const struct nvvideo_call *call = &NVVIDEO_CALLS[pick_weighted_index(&x->rng, weights, COUNT_OF(weights))];
        struct table_writer *w = &x->nvvideo[call->api];
        int64_t end = now[t] + extra_duration(&x->rng, call->base_ns);
        row_begin(c, w);
        put_int(w, now[t]);
        put_int(w, end);
        put_int(w, NVVIDEO_EVENT_CLASS[call->api]);
        put_int(w, (int64_t)x->g->threads[t].gtid);
        put_int(w, intern(x->g, call->name));
        row_end(w);
        now[t] = end + 1000 * rng_range(&x->rng, 1, 20);
        note_time(x->g, now[t]);
    }
    free(now);
}

static void gen_mpi_net_video(struct gen *g)
{
    const struct config *c = g->cfg;
    if (c->mpi_events == 0 && c->net_samples == 0 && c->nvvideo_calls == 0)
        return;
    struct mpi_gen x = {
        .g = g,
        .p2p = WRITER("MPI_P2P_EVENTS"),
        .coll = WRITER("MPI_COLLECTIVES_EVENTS"),
        .start_wait = WRITER("MPI_START_WAIT_EVENTS"),
        .other = WRITER("MPI_OTHER_EVENTS"),
        .ranks = WRITER("MPI_RANKS"),
        .nic_metric = WRITER("NET_NIC_METRIC"),
        .ib_metric = WRITER("NET_IB_SWITCH_METRIC"),
        .nic_map = WRITER("NIC_ID_MAP"),
        .net_metrics = WRITER("TARGET_INFO_NETWORK_METRICS"),
        .nic_info = WRITER("TARGET_INFO_NIC_INFO"),
        .nvvideo = {WRITER("NVVIDEO_ENCODER_API"),
                    WRITER("NVVIDEO_DECODER_API"),
                    WRITER("NVVIDEO_JPEG_API")},
    };
    rng_seed(&x.rng, c->seed ^ UINT64_C(0x6d70696e65747669));
    if (c->mpi_events > 0)
        gen_mpi(&x);
    if (c->net_samples > 0)
        gen_net(&x);
    if (c->nvvideo_calls > 0)
        gen_nvvideo(&x);
    struct table_writer *writers[] = {&x.p2p, &x.coll, &x.start_wait, &x.other, &x.ranks, &x.nic_metric,
                                      &x.ib_metric, &x.nic_map, &x.net_metrics, &x.nic_info, &x.nvvideo[0],
                                      &x.nvvideo[1], &x.nvvideo[2]};
    for (size_t i = 0; i < COUNT_OF(writers); i++)
        writer_close(writers[i]);
}

/* ======================================================================================= end of MPI, network, NvVideo */

/* ======================================================================================= profiler overhead */

/* PROFILER_OVERHEAD: the profiler's own work, on the CPU threads that did it (globalTid), named by
 * what it was. nsys counts the flush/stop overhead rows as GPU busy time when they fall strictly
 * inside a process's span of GPU operations on a device, so each (process, device) span gets rows
 * inside it, on its edges (sharing its first start or its last end), straddling them and outside
 * it, under those names and others, on the main thread, on no thread (NULL) and on a thread of a
 * process with no GPU work. Written after everything else, from a random stream of its own. */

static const char *const OVERHEAD_NAMES[] = {
    "CUDA profiling data flush overhead", "CUDA profiling stop overhead", "CUDA profiling overhead",
    "CUDA profiling data flush on process exit", "CUPTI Buffer flush", "TLS allocation",
};

struct overhead_span {
    int64_t gpid, first, last;
};

/* The (process, device) spans of the CUDA GPU operations written so far. */
static struct overhead_span *overhead_spans(size_t *n)
{
    static const char sql[] =
        "SELECT globalPid, min(start), max(end) FROM (SELECT globalPid, deviceId, start, end FROM "
        "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT globalPid, deviceId, start, end FROM "
        "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT globalPid, deviceId, start, end FROM "
        "CUPTI_ACTIVITY_KIND_MEMSET) GROUP BY globalPid, deviceId ORDER BY globalPid, deviceId";
    sqlite3_stmt *st = NULL;
    size_t cap = 8;
    struct overhead_span *sp = xcalloc(cap, sizeof *sp);
    *n = 0;
    /* without all three tables (--kernels 0 ...) there is no span to write around */
    if (sqlite3_prepare_v2(g_out.db, sql, -1, &st, NULL) != SQLITE_OK)
        return sp;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (*n == cap) {
            struct overhead_span *more = xcalloc(2 * cap, sizeof *more);
            memcpy(more, sp, cap * sizeof *sp);
            free(sp);
            sp = more;
            cap *= 2;
        }
        sp[(*n)++] = (struct overhead_span){sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                                            sqlite3_column_int64(st, 2)};
    }
    sqlite3_finalize(st);
    return sp;
}

static void write_overhead_row(struct gen *g, struct table_writer *w, int64_t start, int64_t end, bool thread,
                               uint64_t gtid, const char *name)
{
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int_or_null(w, thread, (int64_t)gtid);
    put_int(w, intern(g, name));
    put_int(w, 0);
    row_end(w);
    note_time(g, end);
}

/* One span's rows: the fixed edge cases first, then count rows anywhere from a tenth of the span
 * before it to a tenth after it. */
static void write_span_overhead(struct gen *g, struct rng *r, struct table_writer *w, const struct overhead_span *sp,
                                int64_t count)
{
    uint64_t main_tid = (uint64_t)sp->gpid | (((uint64_t)sp->gpid >> 24) & 0xffffff);
    uint64_t stranger = ((uint64_t)sp->gpid & ~UINT64_C(0xffffffffffff)) | (UINT64_C(4242) << 24) | 4242;
    int64_t len = sp->last - sp->first, pad = len / 10 + 1;
    const char *flush = OVERHEAD_NAMES[0];
    write_overhead_row(g, w, sp->first, sp->first + len / 4 + 1, true, main_tid, flush);
    write_overhead_row(g, w, sp->last - len / 4 - 1, sp->last, true, main_tid, flush);
    write_overhead_row(g, w, sp->first - pad, sp->first + pad, true, main_tid, OVERHEAD_NAMES[1]);
    write_overhead_row(g, w, sp->last - pad, sp->last + pad, true, main_tid, OVERHEAD_NAMES[2]);
    write_overhead_row(g, w, sp->first + len / 3, sp->first + len / 3 + pad, false, 0, flush);
    write_overhead_row(g, w, sp->first + len / 2, sp->first + len / 2 + pad, true, stranger, flush);
    for (int64_t i = 0; i < count; i++) {
        int64_t start = sp->first - pad + rng_below(r, len + 2 * pad);
        int64_t dur = rng_range(r, 1000, pad / 4 + 1000);
        const char *name = OVERHEAD_NAMES[rng_below(r, (int64_t)COUNT_OF(OVERHEAD_NAMES))];
        write_overhead_row(g, w, start, start + dur, true, main_tid, name);
    }
}

static void write_profiler_overhead(struct gen *g)
{
    const struct config *c = g->cfg;
    if (c->overhead_rows == 0)
        return;
    struct table_writer w = WRITER("PROFILER_OVERHEAD");
    struct rng r;
    rng_seed(&r, c->seed ^ UINT64_C(0x6f76657268656164));
    size_t n = 0;
    struct overhead_span *sp = overhead_spans(&n);
    for (size_t i = 0; i < n; i++)
        write_span_overhead(g, &r, &w, &sp[i], c->overhead_rows);
    free(sp);
    writer_close(&w);
}

/* ======================================================================================= end of profiler overhead */

/* ======================================================================================= GPU time: CUDA graphs */

/* --graphs N: CUDA graph launches as graph-level tracing (--cuda-graph-trace=graph, nsys's default)
 * exports them: the host's cudaGraphLaunch_v10000 runtime row, and one CUPTI_ACTIVITY_KIND_GRAPH_TRACE
 * row with its correlationId for the whole execution of the graph on the GPU; the graph's kernels are
 * in no KERNEL row, which is what makes GPU time from kernel rows alone come up short. Launches go
 * round-robin over the processes, onto a random stream of a random device of the process, at random
 * times over the run, so some overlap kernels, copies and other graphs and some fall in idle time.
 * Each process has 3 graphs (graphId 1..3), each instantiated once (graphExecId 101..103). Written
 * after everything else from a random stream of their own: the other rows are those of the same run
 * without --graphs, and correlationIds continue past the ones the process used. */

static void write_graph_trace_row(struct gen *g, struct table_writer *w, const struct gpu_span *s, int ctx,
                                  int stream, int64_t corr, int64_t graph)
{
    row_begin(g->cfg, w);
    put_gpu_prefix(g, w, s, ctx, stream, corr);
    put_int(w, graph);
    put_int(w, 100 + graph); /* graphExecId */
    row_end(w);
    note_time(g, s->gpu_end);
}

/* One launch by process p somewhere in [p's start, until): the call returns before the graph starts. */
static void emit_graph_launch(struct gen *g, struct rng *r, struct table_writer *w, int64_t api_name,
                              struct process *p, int64_t until)
{
    int ctx = p->first_context + (int)rng_below(r, p->ncontexts);
    int stream = (int)rng_below(r, g->cfg->streams);
    const struct thread *th = &g->threads[p->first_thread + (int)rng_below(r, g->cfg->threads)];
    struct gpu_span s;
    s.gpu_start = p->start_time + 1000000 + rng_below(r, max64(until - p->start_time - 1000000, 1));
    s.gpu_end = s.gpu_start + rng_range(r, 10000, 120000);
    s.api_start = s.gpu_start - rng_range(r, 3000, 12000);
    s.api_end = s.api_start + rng_range(r, 1500, 2900);
    int64_t corr = p->next_corr++;
    write_runtime_row(g, s.api_start, s.api_end, EVENT_CLASS_CUDA_RUNTIME, th->gtid, corr, api_name, 0, false, 0);
    write_graph_trace_row(g, w, &s, ctx, stream, corr, 1 + rng_below(r, 3));
}

static void write_cuda_graphs(struct gen *g)
{
    const struct config *c = g->cfg;
    if (c->graph_launches == 0)
        return;
    struct table_writer w = WRITER("CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
    struct rng r;
    rng_seed(&r, c->seed ^ UINT64_C(0x6772617068736e73));
    int64_t api_name = intern(g, "cudaGraphLaunch_v10000");
    int64_t until = g->last_time;
    for (int64_t i = 0; i < c->graph_launches; i++)
        emit_graph_launch(g, &r, &w, api_name, &g->procs[i % c->processes], until);
    writer_close(&w);
}

/* ======================================================================================= end of GPU time: CUDA graphs */

/* ======================================================================================= export faults (nstats check) */
/* --dup-gpu-rows, --orphan-gpu-rows, --stream-overlap, --bad-durations, --open-ranges, --truncated and
 * --graph-rows damage the finished export the way real captures are damaged, for the tests of
 * `nstats check`. They run on the written tables through SQL, after every other row, each from a
 * random stream of its own: without them the export is byte for byte what it was. Rows are picked by
 * rank in rowid order; a row may be picked twice, and faults may meet (the tests count what is there,
 * not what was asked for). */

static const char *const FAULT_GPU_TABLES[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                               "CUPTI_ACTIVITY_KIND_MEMSET"};

/* Runs sql with up to 4 integer parameters; returns the first column of its first row, or 0. */
static int64_t fault_sql(const char *sql, int n, const int64_t *args)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(g_out.db, sql, -1, &st, NULL) != SQLITE_OK)
        fail_sqlite("preparing a fault");
    for (int i = 0; i < n; i++)
        sqlite3_bind_int64(st, i + 1, args[i]);
    int64_t v = 0;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    else if (rc != SQLITE_DONE)
        fail_sqlite("writing a fault");
    sqlite3_finalize(st);
    return v;
}

static int64_t fault_rows(const char *table)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '%s'", table);
    if (fault_sql(sql, 0, NULL) == 0)
        return 0;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    return fault_sql(sql, 0, NULL);
}

/* The rowid of a random row of table (which has rows). */
static int64_t fault_pick(struct rng *r, const char *table, int64_t rows)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT rowid FROM %s ORDER BY rowid LIMIT 1 OFFSET ?", table);
    int64_t off = rng_below(r, rows);
    return fault_sql(sql, 1, &off);
}

/* One of `tables` that has rows, at random; NULL when none has. */
static const char *fault_table(struct rng *r, const char *const *tables, size_t n, int64_t *rows)
{
    size_t first = (size_t)rng_below(r, (int64_t)n);
    for (size_t k = 0; k < n; k++) {
        const char *t = tables[(first + k) % n];
        if ((*rows = fault_rows(t)) > 0)
            return t;
    }
    return NULL;
}

static void fault_update(const char *table, const char *set, int64_t a, int64_t rowid)
{
    char sql[512];
    snprintf(sql, sizeof sql, "UPDATE %s SET %s WHERE rowid = ?2", table, set);
    int64_t args[2] = {a, rowid};
    fault_sql(sql, 2, args);
}

/* A memset row moved onto a kernel's span: the same work in two tables. */
static void fault_dup_across(struct rng *r)
{
    int64_t nk = fault_rows(FAULT_GPU_TABLES[0]), ns = fault_rows(FAULT_GPU_TABLES[2]);
    if (nk == 0 || ns == 0)
        return;
    int64_t args[2] = {fault_pick(r, FAULT_GPU_TABLES[2], ns), fault_pick(r, FAULT_GPU_TABLES[0], nk)};
    fault_sql("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET SELECT * FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE rowid = ?1", 1,
              args);
    int64_t moved[2] = {sqlite3_last_insert_rowid(g_out.db), args[1]};
    fault_sql("UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET (deviceId, streamId, start, end) = (SELECT deviceId, streamId, "
              "start, end FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid = ?2) WHERE rowid = ?1",
              2, moved);
}

static void fault_dup_gpu(struct rng *r, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if (i % 3 == 2) {
            fault_dup_across(r);
            continue;
        }
        int64_t rows;
        const char *t = fault_table(r, FAULT_GPU_TABLES, 3, &rows);
        if (!t)
            return;
        char sql[256];
        snprintf(sql, sizeof sql, "INSERT INTO %s SELECT * FROM %s WHERE rowid = ?", t, t);
        int64_t rowid = fault_pick(r, t, rows);
        fault_sql(sql, 1, &rowid);
    }
}

static void fault_orphan_gpu(struct rng *r, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t rows;
        const char *t = fault_table(r, FAULT_GPU_TABLES, 3, &rows);
        if (!t)
            return;
        fault_update(t, "correlationId = ?1", INT64_C(900000000) + i, fault_pick(r, t, rows));
    }
}

static void fault_stream_overlap(struct rng *r, int64_t n)
{
    int64_t rows = fault_rows(FAULT_GPU_TABLES[0]);
    for (int64_t i = 0; rows > 0 && i < n; i++)
        fault_update(FAULT_GPU_TABLES[0], "end = end + ?1", rng_range(r, 1000, 200000),
                     fault_pick(r, FAULT_GPU_TABLES[0], rows));
}

static void fault_bad_durations(struct rng *r, int64_t n)
{
    static const char *const tables[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                         "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME"};
    for (int64_t i = 0; i < n; i++) {
        int64_t rows;
        const char *t = fault_table(r, tables, COUNT_OF(tables), &rows);
        if (!t)
            return;
        fault_update(t, "end = start - ?1", rng_range(r, 0, 2), fault_pick(r, t, rows));
    }
}

static void fault_open_ranges(struct rng *r, int64_t n)
{
    int64_t ranges = fault_sql("SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60)", 0, NULL);
    for (int64_t i = 0; ranges > 0 && i < n; i++) {
        int64_t off = rng_below(r, ranges);
        int64_t rowid = fault_sql("SELECT rowid FROM NVTX_EVENTS WHERE eventType IN (59, 60) ORDER BY rowid "
                                  "LIMIT 1 OFFSET ?",
                                  1, &off);
        fault_sql("UPDATE NVTX_EVENTS SET end = NULL WHERE rowid = ?", 1, &rowid);
    }
}

static void fault_truncated(struct rng *r, int64_t n)
{
    static const char *const tables[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                         "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS"};
    int64_t session_end = fault_sql("SELECT max(duration) FROM ANALYSIS_DETAILS", 0, NULL);
    for (int64_t i = 0; i < n; i++) {
        int64_t rows;
        const char *t = fault_table(r, tables, COUNT_OF(tables), &rows);
        if (!t)
            return;
        int64_t shift = session_end + rng_range(r, 1, 1000000);
        fault_update(t, "end = end - start + ?1, start = ?1", shift, fault_pick(r, t, rows));
    }
}

static void fault_graph_rows(struct rng *r, int64_t n)
{
    int64_t kernels = fault_rows(FAULT_GPU_TABLES[0]);
    if (n == 0 || kernels == 0)
        return;
    /* --graphs may have made the table already */
    if (fault_sql("SELECT count(*) FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_GRAPH_TRACE'", 0, NULL) == 0) {
        char *create = schema_create_table("CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
        exec_sql(create, "creating CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
        sqlite3_free(create);
    }
    exec_sql("INSERT INTO META_DATA_CAPTURE (name, value) VALUES ('CUDA_GRAPH_TRACE_OPTIONS:MODE', 'Graph')",
             "writing META_DATA_CAPTURE");
    for (int64_t i = 0; i < n; i++) {
        int64_t args[3] = {fault_pick(r, FAULT_GPU_TABLES[0], kernels), rng_range(r, 2000, 50000), i};
        fault_sql("INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE SELECT end + 1, end + 1 + ?2, deviceId, contextId, "
                  "NULL, streamId, 800000000 + ?3, globalPid, 1 + ?3 % 3, ?3 FROM CUPTI_ACTIVITY_KIND_KERNEL "
                  "WHERE rowid = ?1",
                  3, args);
    }
}

static void apply_faults(const struct config *c)
{
    static const uint64_t salt[] = {0x6475706c69636174, 0x6f727068616e6775, 0x6f7665726c617073, 0x6261646475726174,
                                    0x6f70656e72616e67, 0x7472756e63617465, 0x6772617068726f77};
    void (*const fault[])(struct rng *, int64_t) = {fault_dup_gpu,       fault_orphan_gpu, fault_stream_overlap,
                                                    fault_bad_durations, fault_open_ranges, fault_truncated,
                                                    fault_graph_rows};
    const int64_t counts[] = {c->fault_dup_gpu,       c->fault_orphan_gpu,  c->fault_stream_overlap,
                              c->fault_bad_durations, c->fault_open_ranges, c->fault_truncated,
                              c->fault_graph_rows};
    for (size_t i = 0; i < COUNT_OF(fault); i++) {
        if (counts[i] == 0)
            continue;
        struct rng r;
        rng_seed(&r, c->seed ^ salt[i]);
        fault[i](&r, counts[i]);
    }
}

/* ======================================================================================= end of export faults */

static void gen_init(struct gen *g, const struct config *c)
{
    *g = (struct gen){
        .cfg = c,
        .w_strings = WRITER("StringIds"),
        .w_thread_names = WRITER("ThreadNames"),
        .w_processes = WRITER("PROCESSES"),
        .w_meta_export = WRITER("META_DATA_EXPORT"),
        .w_meta_capture = WRITER("META_DATA_CAPTURE"),
        .w_session = WRITER("TARGET_INFO_SESSION_START_TIME"),
        .w_gpu_info = WRITER("TARGET_INFO_GPU"),
        .w_context_info = WRITER("TARGET_INFO_CUDA_CONTEXT_INFO"),
        .w_stream_info = WRITER("TARGET_INFO_CUDA_STREAM"),
        .w_analysis = WRITER("ANALYSIS_DETAILS"),
        .w_runtime = WRITER("CUPTI_ACTIVITY_KIND_RUNTIME"),
        .w_cuda_callchains = WRITER("CUDA_CALLCHAINS"),
        .w_kernel = WRITER("CUPTI_ACTIVITY_KIND_KERNEL"),
        .w_memcpy = WRITER("CUPTI_ACTIVITY_KIND_MEMCPY"),
        .w_memset = WRITER("CUPTI_ACTIVITY_KIND_MEMSET"),
        .w_nvtx = WRITER("NVTX_EVENTS"),
        .w_osrt = WRITER("OSRT_API"),
        .w_osrt_callchains = WRITER("OSRT_CALLCHAINS"),
    };
    rng_seed(&g->rng, c->seed);
    rng_seed(&g->backtrace_rng, c->seed ^ UINT64_C(0x6261636b74726163));
    rng_seed(&g->zero_rng, c->seed ^ UINT64_C(0x7a65726f64757273));
    g->strings.cap = 1024;
    g->strings.keys = xcalloc(g->strings.cap, sizeof(char *));
    g->strings.ids = xcalloc(g->strings.cap, sizeof(int64_t));
}

static void gen_free(struct gen *g)
{
    pool_free(&g->strings);
    free(g->procs);
    free(g->contexts);
    free(g->threads);
    free(g->lane_free);
    free(g->device_busy_until);
    free(g->kernel_names);
    free(g->body);
}

/* ======================================================================================= output file */

static bool path_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static void open_output(const struct config *c)
{
    g_out.shown = c->out_path;
    if (!c->force && path_exists(c->out_path))
        fail("exists; use --force to overwrite it");
    size_t n = strlen(c->out_path) + 32;
    g_out.tmp_path = xcalloc(n, 1);
    snprintf(g_out.tmp_path, n, "%s.nsysgen-%ld.tmp", c->out_path, (long)getpid());
    install_signal_handlers();
    unlink(g_out.tmp_path);
    /* One thread uses one connection: SQLite's mutexes and memory statistics cost about a tenth of
     * a big run (perf: pthread_mutex_lock/unlock and sqlite3StatusUp on every row). Both must be
     * set before the library initializes, that is before the first open. */
    if (sqlite3_config(SQLITE_CONFIG_SINGLETHREAD) != SQLITE_OK ||
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) != SQLITE_OK)
        fail("cannot configure SQLite for one thread");
    if (sqlite3_open_v2(g_out.tmp_path, &g_out.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
        fail_sqlite("cannot create the temporary file");
    /* One transaction, no journal, no fsync: a crash leaves only the temporary file, which is
     * never renamed into place. */
    exec_sql("PRAGMA page_size=4096; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
             "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-65536; PRAGMA temp_store=MEMORY",
             "setting up the database");
    exec_sql("BEGIN", "starting the transaction");
}

static void close_output(struct gen *g)
{
    struct table_writer *writers[] = {
        &g->w_strings, &g->w_thread_names, &g->w_processes, &g->w_meta_export, &g->w_meta_capture, &g->w_session,
        &g->w_gpu_info, &g->w_context_info, &g->w_stream_info, &g->w_analysis, &g->w_runtime, &g->w_cuda_callchains,
        &g->w_kernel, &g->w_memcpy, &g->w_memset, &g->w_nvtx, &g->w_osrt, &g->w_osrt_callchains};
    for (size_t i = 0; i < COUNT_OF(writers); i++)
        writer_close(writers[i]);
    apply_faults(g->cfg);
    exec_sql("COMMIT", "committing");
    if (sqlite3_close(g_out.db) != SQLITE_OK)
        fail_sqlite("closing the database");
    g_out.db = NULL;
}

/* Moves the finished file into place. Without --force, link() refuses an output that appeared
 * meanwhile; file systems without hard links fall back to rename(). */
static void publish_output(const struct config *c)
{
    if (!c->force) {
        if (link(g_out.tmp_path, c->out_path) == 0) {
            unlink(g_out.tmp_path);
            free(g_out.tmp_path);
            g_out.tmp_path = NULL;
            return;
        }
        if (errno == EEXIST)
            fail("exists; use --force to overwrite it");
        if (path_exists(c->out_path))
            fail("exists; use --force to overwrite it");
    }
    if (rename(g_out.tmp_path, c->out_path) != 0)
        fail("cannot rename %s into place: %s", g_out.tmp_path, strerror(errno));
    free(g_out.tmp_path);
    g_out.tmp_path = NULL;
}

static void print_summary(const struct gen *g)
{
    if (g->cfg->quiet || g->events_total < 1000000)
        return;
    fprintf(stderr,
            "nsysgen: %s: %" PRId64 " runtime, %" PRId64 " kernel, %" PRId64 " memcpy, %" PRId64 " memset, %" PRId64
            " NVTX, %" PRId64 " OSRT rows\n",
            g_out.shown, g->w_runtime.rows, g->w_kernel.rows, g->w_memcpy.rows, g->w_memset.rows, g->w_nvtx.rows,
            g->w_osrt.rows);
}

int main(int argc, char **argv)
{
    struct config cfg = parse_args(argc, argv);
    if (cfg.help) {
        print_help(stdout);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    struct gen g;
    gen_init(&g, &cfg);
    open_output(&cfg);
    setup(&g);
    run_host_events(&g);
    write_graphics(&g);
    write_extra_rows(&g);
    nvtx_extras(&g);
    gen_mpi_net_video(&g);
    gen_dx12_mem(&g);
    write_profiler_overhead(&g);
    write_cuda_graphs(&g);
    write_analysis_details(&g);
    close_output(&g);
    publish_output(&cfg);
    print_summary(&g);
    gen_free(&g);
    return 0;
}
