namespace Tplab.Scan.Rules;

/// <summary>How sure the scan is that a call blocks.</summary>
public enum Certainty
{
    /// <summary>The call blocks whatever the values (Thread.Sleep, .Result, a FileStream read).</summary>
    Certain,

    /// <summary>It blocks when the value is what it usually is: a Stream or IQueryable whose concrete type source does not tell.</summary>
    Uncertain,
}
