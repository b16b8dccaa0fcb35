/* The rows of the ENUM_* tables from ENUM_CUDA_DEV_MEM_EVENT_OPER to ENUM_NET_VENDOR_ID, generated from
 * shared/docs/enums-2024.2.3.txt; enums_nsys_to_wddm.c has the rest. The tables are created in this
 * (alphabetical) order, so the two lists are split, not grouped by subject. */
#include "nsysgen.h"

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

const struct enum_table ENUM_TABLES_CUDA_TO_NET[] = {
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
};
const size_t ENUM_TABLES_CUDA_TO_NET_COUNT = COUNT_OF(ENUM_TABLES_CUDA_TO_NET);
