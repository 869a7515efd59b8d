using Tplab.Target;

// Entry point of the target process: `serve` (the seed variants) or `downstream` (the slow second service).
return await TargetHost.RunAsync(args);
