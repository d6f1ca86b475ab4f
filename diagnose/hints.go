package diagnose

// Hints: the first fix to try, in the seeds' priority order ([gpu-idle-pipeline] §8.4:
// data loading, batch size, mixed precision, kernel fusion, multi-GPU; seed
// 002 §8.2 the same, with batching for inference).
var (
	hintNumWorkers = fix{"num_workers", "Load data in worker processes: DataLoader(num_workers=4..16, pin_memory=True, " +
		"persistent_workers=True, prefetch_factor=4); try 2, 4, 8 and watch GPU-Util ([gpu-idle-handbook] §3.1, [gpu-idle-pipeline] §4.1)"}
	hintWorkersSaturated = fix{"workers_saturated", "Every DataLoader worker is CPU-bound: add workers if cores are free, else make " +
		"preprocessing cheaper (cache decoded samples in lmdb/webdataset, resize offline, GPU augmentation) ([gpu-idle-pipeline] §4.1)"}
	hintHostSaturated = fix{"host_saturated", "The host's CPUs are all busy: free cores (other jobs), cache decoded data " +
		"(lmdb/webdataset) or move augmentation to the GPU before adding workers ([gpu-idle-pipeline] §4.1, [gpu-idle-handbook] §7.1)"}
	hintIO = fix{"io", "Reads are the bottleneck: copy the dataset to local NVMe or RAM, pack small files into " +
		"shards (webdataset/lmdb/tfrecord) for sequential reads; more workers will not help a saturated disk ([gpu-idle-handbook] §3.1, [gpu-idle-pipeline] §4.1)"}
	hintSync = fix{"sync", "Remove per-step host syncs (.item(), .cpu(), print(tensor), torch.cuda.synchronize()) from the " +
		"loop; log and checkpoint every N steps or asynchronously ([gpu-idle-pipeline] §2.4 §4.5)"}
	hintLaunch = fix{"launch", "Kernels are too small: raise the batch size (use gradient accumulation if memory is short), " +
		"then fuse launches with torch.compile(mode=\"reduce-overhead\") / CUDA Graphs ([gpu-idle-handbook] §3.2, [gpu-idle-pipeline] §2.2 §4.4)"}
	hintMemBW = fix{"mem_bw", "Memory bandwidth, not compute, is the limit: fuse elementwise ops (torch.compile) and use " +
		"bf16/fp16 to halve the bytes moved; a bigger batch will not help much ([gpu-idle-pipeline] §2.3 §4.3 §4.4)"}
	hintAMP = fix{"amp", "Turn on mixed precision: torch.autocast(device_type=\"cuda\", dtype=torch.bfloat16), or at least " +
		"TF32 (torch.backends.cuda.matmul.allow_tf32 = True) so matmuls use tensor cores ([gpu-idle-pipeline] §4.3, [gpu-idle-handbook] §3.2)"}
	hintCopy = fix{"copy", "Overlap copies with compute: pin_memory=True and .to(device, non_blocking=True); keep tensors " +
		"on the GPU between steps instead of moving them back and forth ([gpu-idle-pipeline] §4.1 §2.5)"}
	hintIdleHeld = fix{"idle_held", "Free the memory or the GPU: end the idle process, or release cached memory " +
		"(del tensors; torch.cuda.empty_cache()) so other jobs can use the card ([gpu-idle-handbook] §6.1 §8.1)"}
	hintAllocIdle = fix{"allocated_idle", "Release the allocation or check the job: scontrol show job JOB and sacct -j JOB say what " +
		"its batch script is doing; scancel the job (or delete the pod) if it will not use the GPU, and request only the GPUs " +
		"each step uses (srun --gpus=N) ([gpu-idle-handbook] §8.1 §6.1)"}
	hintIdleNotebook = fix{"idle_notebook", "An idle notebook kernel holds this GPU: shut the kernel down (or del models + " +
		"torch.cuda.empty_cache()) when not computing ([gpu-idle-handbook] §6.1 §8.1)"}
	hintMemPressure = fix{"mem_pressure", "Measure the peak with torch.cuda.max_memory_allocated(); if it is near the card's size use " +
		"gradient checkpointing or a smaller micro-batch with gradient accumulation; " +
		"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation; an inference server that cannot load or serve its " +
		"model: shard it over more GPUs (vLLM's --tensor-parallel-size, TGI's --num-shard), quantise it, or shorten its context and " +
		"KV cache (max_model_len, gpu_memory_utilization) ([gpu-idle-handbook] §6.1 §3.2, [gpu-idle-pipeline] §2.5, [vllm])"}
	hintMemOthers = fix{"mem_others", "Free what other programs hold on the card before shrinking the job: nvidia-smi's process " +
		"list names them (under Windows' WDDM it gives no per-process memory: Task Manager's Details tab, column Dedicated GPU " +
		"memory, does); close a second UI, a game or a video, turn off the browser's hardware acceleration or drive the display " +
		"from another GPU; then measure the job's own peak with torch.cuda.max_memory_allocated() ([pytorch-cuda-notes], " +
		"[gpu-idle-handbook] §6.1)"}
	hintLoadImbalance = fix{"load_imbalance", "Give each job or rank its own GPU: CUDA_VISIBLE_DEVICES=N per job, or torchrun with " +
		"torch.cuda.set_device(local_rank) in every rank ([gpu-idle-handbook] §3.3 §5.1)"}
	hintStraggler = fix{"straggler", "Find why this rank is slower: uneven data shards or sequence lengths, a throttled or " +
		"shared GPU, a slower link; balance the work so no rank waits ([gpu-idle-handbook] §3.3, [gpu-idle-pipeline] §4.5)"}
	hintCommPCIe = fix{"comm_pcie", "Ranks wait on each other over PCIe: overlap communication with compute (DDP bucket_cap_mb, " +
		"no_sync() with gradient accumulation) or run on NVLink-connected GPUs (nvidia-smi topo -m) ([gpu-idle-handbook] §3.3, [gpu-idle-pipeline] §4.5)"}
	hintCommNVLink = fix{"comm_nvlink", "Communication dominates: sync less often (gradient accumulation with no_sync()), overlap " +
		"it with compute (DDP buckets), avoid torch.cuda.synchronize() before collectives ([gpu-idle-pipeline] §4.5)"}
	hintContention = fix{"contention", "Several jobs share this GPU: move one to a free GPU (CUDA_VISIBLE_DEVICES), or partition " +
		"with MIG/MPS or set exclusive compute mode ([gpu-idle-handbook] §8.1 §5.1)"}
	hintPowerCap = fix{"power_cap", "Check the power limit (nvidia-smi -q -d POWER,CLOCK): restore the default if it was lowered " +
		"with nvidia-smi -pl; at the default limit this is the card's power envelope ([gpu-idle-handbook] §6.2)"}
	hintThermal = fix{"thermal", "Cool the card: check airflow, inlet temperature and fans/chassis (nvidia-smi -q -d " +
		"TEMPERATURE,PERFORMANCE); a steady lower power limit beats oscillating throttling ([gpu-idle-handbook] §6.2)"}
	hintThermalHW = fix{"thermal_hw", "Hardware slowdown cuts clocks by half or more: check cooling, power supply and power-brake " +
		"signals now (nvidia-smi -q -d PERFORMANCE; dmesg) ([gpu-idle-handbook] §6.2)"}
	hintPCIeLink = fix{"pcie_link", "Check the slot, riser and cables and the BIOS PCIe setting; compare Current vs Max in " +
		"nvidia-smi -q -d PCIE and reseat the card ([gpu-idle-handbook] §6.3)"}
	hintPCIeErrors = fix{"pcie_errors", "Link errors keep rising: check power, slot seating and risers/cables first, dmesg | grep -i " +
		"pcie; if they persist, test at a lower PCIe generation in the BIOS before replacing the card ([gpu-idle-handbook] §6.3)"}
	hintXidApp = fix{"xid_app", "Usually an application fault (illegal address / MMU fault): rerun with CUDA_LAUNCH_BLOCKING=1 " +
		"or compute-sanitizer; check dmesg for the full Xid line ([gpu-idle-handbook] §7.1)"}
	hintXidHW = fix{"xid_hw", "Hardware or driver error: drain the node, check dmesg and nvidia-smi -q -d ECC,ROW_REMAPPER, " +
		"reset the GPU; repeated occurrences mean RMA (NVIDIA Xid catalogue)"}
	hintECC = fix{"ecc", "Uncorrectable memory errors: drain jobs from this GPU and reset it (nvidia-smi -r) to apply " +
		"row remapping; a remap failure means the card needs replacement ([gpu-idle-handbook] §6.1; DCGM)"}
	hintECCPending     = fix{"ecc_pending", "A row remap is pending: reset the GPU (nvidia-smi -r or reboot) when idle to activate it (DCGM)"}
	hintServingDynamic = fix{"serving_dynamic", "Batch requests: enable dynamic batching (Triton dynamic_batching {preferred_batch_size, " +
		"max_queue_delay_microseconds}); if latency already meets its target, low util is fine ([gpu-idle-handbook] §4.1 §4.2)"}
	hintServingContinuous = fix{"serving_continuous", "The server already batches continuously: raise concurrency (--max-num-seqs, more " +
		"clients) or consolidate replicas onto fewer GPUs; if latency meets its target, low util is fine ([gpu-idle-handbook] §4.1 §4.2)"}
)
