using Microsoft.AspNetCore.Mvc;

namespace ScanCases.Payments;

[ApiController]
[Route("api/payments")]
public sealed class PaymentsController(PaymentService payments) : ControllerBase
{
    [HttpPost]
    public ActionResult<PaymentResult> Charge(PaymentRequest request)
    {
        var result = payments.Charge(request);
        return result.Approved ? result : UnprocessableEntity(result);
    }
}

[ApiController]
[Route("api/refunds")]
public sealed class RefundsController(PspSession psp) : ControllerBase
{
    [HttpGet("{id:int}")]
    public IActionResult Status(int id) => Ok(new { id, status = psp.RefundStatus(id) });
}
