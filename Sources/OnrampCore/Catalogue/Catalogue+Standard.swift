extension Catalogue {
    /// The deterministic default catalogue.
    ///
    /// - Fiat: USD, EUR, GBP (2 places).
    /// - Networks: the Coinbase names `ethereum, base, solana, polygon, arbitrum, optimism,
    ///   avalanche-c-chain, bitcoin, stellar` plus `sui, worldchain, aptos, xrpl`; `avalanche` is an alias.
    /// - Assets: USDC (mainnet contracts on every network but bitcoin), ETH, SOL, BTC, POL (alias
    ///   MATIC), AVAX, XLM, WLD, SUI, APT.
    /// - Prices in USD (EUR = USD × 0.92, GBP = USD × 0.79): USDC 1, ETH 3000, SOL 150, BTC 60000,
    ///   POL 0.5, AVAX 30, XLM 0.1, WLD 2, SUI 3, APT 8.
    /// - Fees: CARD and APPLE_PAY 2.5 %, ACH 1 %, PAYPAL 3 % + 0.30, wallets free; network fees
    ///   ethereum 1.00, bitcoin 2.00, avalanche-c-chain 0.05, arbitrum/optimism 0.02, others 0.01.
    public static let standard = Catalogue(
        unchecked: standardFiatCurrencies, networks: standardNetworks, assets: standardAssets,
        paymentMethods: standardPaymentMethods, countries: standardCountries, prices: standardPrices,
        fees: standardFees)

    private init(
        unchecked fiatCurrencies: [FiatCurrency], networks: [Network], assets: [Asset],
        paymentMethods: [PaymentMethod], countries: [Country], prices: PriceTable, fees: FeeSchedule
    ) {
        self.fiatCurrencies = fiatCurrencies
        self.networks = networks
        self.assets = assets
        self.paymentMethods = paymentMethods
        self.countries = countries
        self.prices = prices
        self.fees = fees
    }

    private static let standardFiatCurrencies = [
        FiatCurrency(code: "USD", name: "US Dollar", decimals: 2),
        FiatCurrency(code: "EUR", name: "Euro", decimals: 2),
        FiatCurrency(code: "GBP", name: "Pound Sterling", decimals: 2),
    ]

    private static let standardNetworks = [
        Network(id: "ethereum", displayName: "Ethereum", chainID: "1", addressFormat: .evm),
        Network(id: "base", displayName: "Base", chainID: "8453", addressFormat: .evm),
        Network(id: "solana", displayName: "Solana", chainID: "", addressFormat: .solana),
        Network(id: "polygon", displayName: "Polygon", chainID: "137", addressFormat: .evm),
        Network(id: "arbitrum", displayName: "Arbitrum One", chainID: "42161", addressFormat: .evm),
        Network(id: "optimism", displayName: "OP Mainnet", chainID: "10", addressFormat: .evm),
        Network(
            id: "avalanche-c-chain", aliases: ["avalanche"], displayName: "Avalanche C-Chain",
            chainID: "43114", addressFormat: .evm),
        Network(id: "bitcoin", displayName: "Bitcoin", chainID: "", addressFormat: .bitcoin),
        Network(id: "stellar", displayName: "Stellar", chainID: "", addressFormat: .stellar),
        Network(id: "sui", displayName: "Sui", chainID: "", addressFormat: .hex32),
        Network(id: "worldchain", displayName: "World Chain", chainID: "480", addressFormat: .evm),
        Network(id: "aptos", displayName: "Aptos", chainID: "", addressFormat: .hex32),
        Network(id: "xrpl", displayName: "XRP Ledger", chainID: "", addressFormat: .xrpl),
    ]

    private static let standardAssets = [
        Asset(
            id: "2401f985-0b92-477c-a56f-153a42b15288", symbol: "USDC", name: "USD Coin", decimals: 6,
            deployments: [
                .init(network: "ethereum", contractAddress: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"),
                .init(network: "base", contractAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"),
                .init(network: "solana", contractAddress: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"),
                .init(network: "polygon", contractAddress: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"),
                .init(network: "arbitrum", contractAddress: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"),
                .init(network: "optimism", contractAddress: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85"),
                .init(
                    network: "avalanche-c-chain", contractAddress: "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E"),
                .init(
                    network: "stellar", contractAddress: "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN"),
                .init(
                    network: "sui",
                    contractAddress:
                        "0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC"),
                .init(network: "worldchain", contractAddress: "0x79A02482A880bCE3F13e09Da970dC34db4CD24d1"),
                .init(
                    network: "aptos",
                    contractAddress: "0xbae207659db88bea0cbead6da0ed00aac12edcdda169e591cd41c94180b46f3b"),
            ]),
        Asset(
            id: "00900029-54bf-478f-a945-8ed0ca6c7e8f", symbol: "ETH", name: "Ethereum", decimals: 18,
            deployments: [
                .init(network: "ethereum"), .init(network: "base"), .init(network: "arbitrum"),
                .init(network: "optimism"), .init(network: "worldchain"),
            ]),
        Asset(
            id: "087d692a-939e-4d13-b04d-eb253ccf1da2", symbol: "SOL", name: "Solana", decimals: 9,
            deployments: [.init(network: "solana")]),
        Asset(
            id: "9b60b3e2-ef14-4b79-999d-72adfafbe5b6", symbol: "BTC", name: "Bitcoin", decimals: 8,
            deployments: [.init(network: "bitcoin")]),
        Asset(
            id: "f4a4bc21-7ab0-48d7-8563-8e0bb45c3d50", symbol: "POL", aliases: ["MATIC"],
            name: "Polygon Ecosystem Token", decimals: 18, deployments: [.init(network: "polygon")]),
        Asset(
            id: "1ac7769e-1eae-4b54-9971-42efc9b53853", symbol: "AVAX", name: "Avalanche", decimals: 18,
            deployments: [.init(network: "avalanche-c-chain")]),
        Asset(
            id: "d1a01c12-96b9-4053-9c36-a86f0fb8afd1", symbol: "XLM", name: "Stellar Lumens", decimals: 7,
            deployments: [.init(network: "stellar")]),
        Asset(
            id: "07a02d9d-e35d-4a7d-bcec-dc79f8300d55", symbol: "WLD", name: "Worldcoin", decimals: 18,
            deployments: [
                .init(network: "worldchain", contractAddress: "0x2cFc85d8E48F8EAB294be644d9E25C3030863003"),
                .init(network: "ethereum", contractAddress: "0x163f8C2467924be0ae7B5347228CABF260318753"),
            ]),
        Asset(
            id: "4abceaf2-2be1-4d19-8544-1a79af861e02", symbol: "SUI", name: "Sui", decimals: 9,
            deployments: [.init(network: "sui")]),
        Asset(
            id: "b8d48d18-b8d4-45cc-828b-0a9a8ce41596", symbol: "APT", name: "Aptos", decimals: 8,
            deployments: [.init(network: "aptos")]),
    ]

    private static func amount(_ integer: Int, scale: Int = 0) -> DecimalAmount {
        DecimalAmount(units: integer, scale: scale)
    }

    private static func limits(_ minimum: Int, _ maximum: Int, currencies: [String]) -> [PaymentMethod.Limit] {
        currencies.map { .init(currency: $0, minimum: amount(minimum), maximum: amount(maximum)) }
    }

    private static let standardPaymentMethods = [
        PaymentMethod(type: .card, limits: limits(2, 7_500, currencies: ["USD", "EUR", "GBP"])),
        PaymentMethod(type: .ach, limits: limits(5, 25_000, currencies: ["USD"])),
        PaymentMethod(type: .applePay, limits: limits(2, 7_500, currencies: ["USD", "EUR", "GBP"])),
        PaymentMethod(type: .fiatWallet, limits: limits(1, 100_000, currencies: ["USD", "EUR", "GBP"])),
        PaymentMethod(type: .cryptoWallet, limits: limits(1, 100_000, currencies: ["USD", "EUR", "GBP"])),
        PaymentMethod(type: .paypal, limits: limits(2, 5_000, currencies: ["USD", "EUR", "GBP"])),
    ]

    private static let usStates = [
        "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA",
        "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM",
        "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA",
        "WV", "WI", "WY",
    ]

    private static let standardCountries: [Country] = {
        let europeanMethods: [PaymentMethodType] = [.card, .applePay, .fiatWallet, .cryptoWallet, .paypal]
        let european = [
            ("AT", "Austria"), ("BE", "Belgium"), ("DE", "Germany"), ("ES", "Spain"), ("FI", "Finland"),
            ("FR", "France"), ("IE", "Ireland"), ("IT", "Italy"), ("NL", "Netherlands"), ("PT", "Portugal"),
        ].map { Country(id: $0.0, name: $0.1, subdivisions: [], paymentMethods: europeanMethods) }
        return [
            Country(
                id: "US", name: "United States", subdivisions: usStates,
                paymentMethods: PaymentMethodType.allCases),
            Country(id: "GB", name: "United Kingdom", subdivisions: [], paymentMethods: europeanMethods),
        ] + european
    }()

    private static let standardPrices: PriceTable = {
        let usd: [(String, Int, Int)] = [
            ("USDC", 1, 0), ("ETH", 3_000, 0), ("SOL", 150, 0), ("BTC", 60_000, 0), ("POL", 5, 1),
            ("AVAX", 30, 0), ("XLM", 1, 1), ("WLD", 2, 0), ("SUI", 3, 0), ("APT", 8, 0),
        ]
        let rates = [("USD", amount(1)), ("EUR", amount(92, scale: 2)), ("GBP", amount(79, scale: 2))]
        return PriceTable(
            entries: rates.flatMap { currency, rate in
                usd.map { PriceTable.Entry(asset: $0.0, currency: currency, price: amount($0.1, scale: $0.2) * rate) }
            })
    }()

    private static let standardFees = FeeSchedule(
        paymentMethodFees: [
            .init(method: .card, percentage: amount(25, scale: 3), fixed: .zero),
            .init(method: .applePay, percentage: amount(25, scale: 3), fixed: .zero),
            .init(method: .ach, percentage: amount(1, scale: 2), fixed: .zero),
            .init(method: .paypal, percentage: amount(3, scale: 2), fixed: amount(30, scale: 2)),
            .init(method: .fiatWallet, percentage: .zero, fixed: .zero),
            .init(method: .cryptoWallet, percentage: .zero, fixed: .zero),
        ],
        networkFees: [
            .init(network: "ethereum", amount: amount(100, scale: 2)),
            .init(network: "bitcoin", amount: amount(200, scale: 2)),
            .init(network: "avalanche-c-chain", amount: amount(5, scale: 2)),
            .init(network: "arbitrum", amount: amount(2, scale: 2)),
            .init(network: "optimism", amount: amount(2, scale: 2)),
            .init(network: "base", amount: amount(1, scale: 2)),
            .init(network: "solana", amount: amount(1, scale: 2)),
            .init(network: "polygon", amount: amount(1, scale: 2)),
            .init(network: "stellar", amount: amount(1, scale: 2)),
            .init(network: "sui", amount: amount(1, scale: 2)),
            .init(network: "worldchain", amount: amount(1, scale: 2)),
            .init(network: "aptos", amount: amount(1, scale: 2)),
        ])
}
