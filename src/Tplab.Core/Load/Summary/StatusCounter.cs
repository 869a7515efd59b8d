namespace Tplab.Load.Summary;

/// <summary>Counts by status code without a lookup per record: an array for 0–599, a dictionary for anything odd.</summary>
internal sealed class StatusCounter
{
    private readonly long[] _common = new long[600];
    private Dictionary<int, long>? _other;

    public void Add(int status)
    {
        if ((uint)status < (uint)_common.Length)
        {
            _common[status]++;
            return;
        }
        _other ??= [];
        _other[status] = _other.GetValueOrDefault(status) + 1;
    }

    public SortedDictionary<int, long> ToDictionary()
    {
        var codes = new SortedDictionary<int, long>();
        for (var i = 0; i < _common.Length; i++)
        {
            if (_common[i] != 0)
            {
                codes[i] = _common[i];
            }
        }
        foreach (var (code, count) in _other ?? [])
        {
            codes[code] = count;
        }
        return codes;
    }
}
