using ShopApp.Accounts;
using ShopApp.Availability;
using ShopApp.Catalog;
using ShopApp.Content;
using ShopApp.Customers;
using ShopApp.Documents;
using ShopApp.Fx;
using ShopApp.Imports;
using ShopApp.Infrastructure;
using ShopApp.Integration;
using ShopApp.Inventory;
using ShopApp.Loyalty;
using ShopApp.Notifications;
using ShopApp.Orders;
using ShopApp.Pages.Invoices;
using ShopApp.Pricing;
using ShopApp.Quotes;
using ShopApp.Recommendations;
using ShopApp.Reports;
using ShopApp.Shipping;

namespace ShopApp.Corpus;

/// <summary>Every feature's expectations, gathered for tplab's corpus test.</summary>
public static class ShopCorpus
{
    public static IReadOnlyList<ExpectedCulprit> Cases { get; } =
    [
        .. CatalogEndpoints.Expected,
        .. PricingEndpoints.Expected,
        .. CartController.Expected,
        .. OrdersController.Expected,
        .. InventoryEndpoints.Expected,
        .. ShippingEndpoints.Expected,
        .. ReportsController.Expected,
        .. BannerEndpoints.Expected,
        .. AccountServices.Expected,
        .. AccountsController.Expected,
        .. IntegrationEndpoints.Expected,
        .. ImportsController.Expected,
        .. CustomerEndpoints.Expected,
        .. FxEndpoints.Expected,
        .. LegacyTenantEndpoints.Expected,
        .. ShowModel.Expected,
        .. NotificationEndpoints.Expected,
        .. LoyaltyEndpoints.Expected,
        .. RecommendationEndpoints.Expected,
        .. DocumentsController.Expected,
        .. QuoteEndpoints.Expected,
        .. AvailabilityEndpoints.Expected,
    ];
}
