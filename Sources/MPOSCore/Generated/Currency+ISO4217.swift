// This file is generated. Do not edit it by hand.
// Regenerate with `python3 Scripts/gen-iso4217.py` from the repository root.
// Source: ISO 4217 list one (table.xml, published 2026-01-01) from PyPI's `iso4217`.

extension Currency {
    /// Every active ISO 4217 currency and fund (178 entries, list published 2026-01-01),
    /// sorted by alpha code, each listed once.
    public static let all: [Currency] = [
        Currency(code: "AED", numericCode: 784, minorUnits: 2, name: "UAE Dirham"),
        Currency(code: "AFN", numericCode: 971, minorUnits: 2, name: "Afghani"),
        Currency(code: "ALL", numericCode: 8, minorUnits: 2, name: "Lek"),
        Currency(code: "AMD", numericCode: 51, minorUnits: 2, name: "Armenian Dram"),
        Currency(code: "AOA", numericCode: 973, minorUnits: 2, name: "Kwanza"),
        Currency(code: "ARS", numericCode: 32, minorUnits: 2, name: "Argentine Peso"),
        Currency(code: "AUD", numericCode: 36, minorUnits: 2, name: "Australian Dollar"),
        Currency(code: "AWG", numericCode: 533, minorUnits: 2, name: "Aruban Florin"),
        Currency(code: "AZN", numericCode: 944, minorUnits: 2, name: "Azerbaijan Manat"),
        Currency(code: "BAM", numericCode: 977, minorUnits: 2, name: "Convertible Mark"),
        Currency(code: "BBD", numericCode: 52, minorUnits: 2, name: "Barbados Dollar"),
        Currency(code: "BDT", numericCode: 50, minorUnits: 2, name: "Taka"),
        Currency(code: "BHD", numericCode: 48, minorUnits: 3, name: "Bahraini Dinar"),
        Currency(code: "BIF", numericCode: 108, minorUnits: 0, name: "Burundi Franc"),
        Currency(code: "BMD", numericCode: 60, minorUnits: 2, name: "Bermudian Dollar"),
        Currency(code: "BND", numericCode: 96, minorUnits: 2, name: "Brunei Dollar"),
        Currency(code: "BOB", numericCode: 68, minorUnits: 2, name: "Boliviano"),
        Currency(code: "BOV", numericCode: 984, minorUnits: 2, name: "Mvdol", isFund: true),
        Currency(code: "BRL", numericCode: 986, minorUnits: 2, name: "Brazilian Real"),
        Currency(code: "BSD", numericCode: 44, minorUnits: 2, name: "Bahamian Dollar"),
        Currency(code: "BTN", numericCode: 64, minorUnits: 2, name: "Ngultrum"),
        Currency(code: "BWP", numericCode: 72, minorUnits: 2, name: "Pula"),
        Currency(code: "BYN", numericCode: 933, minorUnits: 2, name: "Belarusian Ruble"),
        Currency(code: "BZD", numericCode: 84, minorUnits: 2, name: "Belize Dollar"),
        Currency(code: "CAD", numericCode: 124, minorUnits: 2, name: "Canadian Dollar"),
        Currency(code: "CDF", numericCode: 976, minorUnits: 2, name: "Congolese Franc"),
        Currency(code: "CHE", numericCode: 947, minorUnits: 2, name: "WIR Euro", isFund: true),
        Currency(code: "CHF", numericCode: 756, minorUnits: 2, name: "Swiss Franc"),
        Currency(code: "CHW", numericCode: 948, minorUnits: 2, name: "WIR Franc", isFund: true),
        Currency(code: "CLF", numericCode: 990, minorUnits: 4, name: "Unidad de Fomento", isFund: true),
        Currency(code: "CLP", numericCode: 152, minorUnits: 0, name: "Chilean Peso"),
        Currency(code: "CNY", numericCode: 156, minorUnits: 2, name: "Yuan Renminbi"),
        Currency(code: "COP", numericCode: 170, minorUnits: 2, name: "Colombian Peso"),
        Currency(code: "COU", numericCode: 970, minorUnits: 2, name: "Unidad de Valor Real", isFund: true),
        Currency(code: "CRC", numericCode: 188, minorUnits: 2, name: "Costa Rican Colon"),
        Currency(code: "CUP", numericCode: 192, minorUnits: 2, name: "Cuban Peso"),
        Currency(code: "CVE", numericCode: 132, minorUnits: 2, name: "Cabo Verde Escudo"),
        Currency(code: "CZK", numericCode: 203, minorUnits: 2, name: "Czech Koruna"),
        Currency(code: "DJF", numericCode: 262, minorUnits: 0, name: "Djibouti Franc"),
        Currency(code: "DKK", numericCode: 208, minorUnits: 2, name: "Danish Krone"),
        Currency(code: "DOP", numericCode: 214, minorUnits: 2, name: "Dominican Peso"),
        Currency(code: "DZD", numericCode: 12, minorUnits: 2, name: "Algerian Dinar"),
        Currency(code: "EGP", numericCode: 818, minorUnits: 2, name: "Egyptian Pound"),
        Currency(code: "ERN", numericCode: 232, minorUnits: 2, name: "Nakfa"),
        Currency(code: "ETB", numericCode: 230, minorUnits: 2, name: "Ethiopian Birr"),
        Currency(code: "EUR", numericCode: 978, minorUnits: 2, name: "Euro"),
        Currency(code: "FJD", numericCode: 242, minorUnits: 2, name: "Fiji Dollar"),
        Currency(code: "FKP", numericCode: 238, minorUnits: 2, name: "Falkland Islands Pound"),
        Currency(code: "GBP", numericCode: 826, minorUnits: 2, name: "Pound Sterling"),
        Currency(code: "GEL", numericCode: 981, minorUnits: 2, name: "Lari"),
        Currency(code: "GHS", numericCode: 936, minorUnits: 2, name: "Ghana Cedi"),
        Currency(code: "GIP", numericCode: 292, minorUnits: 2, name: "Gibraltar Pound"),
        Currency(code: "GMD", numericCode: 270, minorUnits: 2, name: "Dalasi"),
        Currency(code: "GNF", numericCode: 324, minorUnits: 0, name: "Guinean Franc"),
        Currency(code: "GTQ", numericCode: 320, minorUnits: 2, name: "Quetzal"),
        Currency(code: "GYD", numericCode: 328, minorUnits: 2, name: "Guyana Dollar"),
        Currency(code: "HKD", numericCode: 344, minorUnits: 2, name: "Hong Kong Dollar"),
        Currency(code: "HNL", numericCode: 340, minorUnits: 2, name: "Lempira"),
        Currency(code: "HTG", numericCode: 332, minorUnits: 2, name: "Gourde"),
        Currency(code: "HUF", numericCode: 348, minorUnits: 2, name: "Forint"),
        Currency(code: "IDR", numericCode: 360, minorUnits: 2, name: "Rupiah"),
        Currency(code: "ILS", numericCode: 376, minorUnits: 2, name: "New Israeli Sheqel"),
        Currency(code: "INR", numericCode: 356, minorUnits: 2, name: "Indian Rupee"),
        Currency(code: "IQD", numericCode: 368, minorUnits: 3, name: "Iraqi Dinar"),
        Currency(code: "IRR", numericCode: 364, minorUnits: 2, name: "Iranian Rial"),
        Currency(code: "ISK", numericCode: 352, minorUnits: 0, name: "Iceland Krona"),
        Currency(code: "JMD", numericCode: 388, minorUnits: 2, name: "Jamaican Dollar"),
        Currency(code: "JOD", numericCode: 400, minorUnits: 3, name: "Jordanian Dinar"),
        Currency(code: "JPY", numericCode: 392, minorUnits: 0, name: "Yen"),
        Currency(code: "KES", numericCode: 404, minorUnits: 2, name: "Kenyan Shilling"),
        Currency(code: "KGS", numericCode: 417, minorUnits: 2, name: "Som"),
        Currency(code: "KHR", numericCode: 116, minorUnits: 2, name: "Riel"),
        Currency(code: "KMF", numericCode: 174, minorUnits: 0, name: "Comorian Franc"),
        Currency(code: "KPW", numericCode: 408, minorUnits: 2, name: "North Korean Won"),
        Currency(code: "KRW", numericCode: 410, minorUnits: 0, name: "Won"),
        Currency(code: "KWD", numericCode: 414, minorUnits: 3, name: "Kuwaiti Dinar"),
        Currency(code: "KYD", numericCode: 136, minorUnits: 2, name: "Cayman Islands Dollar"),
        Currency(code: "KZT", numericCode: 398, minorUnits: 2, name: "Tenge"),
        Currency(code: "LAK", numericCode: 418, minorUnits: 2, name: "Lao Kip"),
        Currency(code: "LBP", numericCode: 422, minorUnits: 2, name: "Lebanese Pound"),
        Currency(code: "LKR", numericCode: 144, minorUnits: 2, name: "Sri Lanka Rupee"),
        Currency(code: "LRD", numericCode: 430, minorUnits: 2, name: "Liberian Dollar"),
        Currency(code: "LSL", numericCode: 426, minorUnits: 2, name: "Loti"),
        Currency(code: "LYD", numericCode: 434, minorUnits: 3, name: "Libyan Dinar"),
        Currency(code: "MAD", numericCode: 504, minorUnits: 2, name: "Moroccan Dirham"),
        Currency(code: "MDL", numericCode: 498, minorUnits: 2, name: "Moldovan Leu"),
        Currency(code: "MGA", numericCode: 969, minorUnits: 2, name: "Malagasy Ariary"),
        Currency(code: "MKD", numericCode: 807, minorUnits: 2, name: "Denar"),
        Currency(code: "MMK", numericCode: 104, minorUnits: 2, name: "Kyat"),
        Currency(code: "MNT", numericCode: 496, minorUnits: 2, name: "Tugrik"),
        Currency(code: "MOP", numericCode: 446, minorUnits: 2, name: "Pataca"),
        Currency(code: "MRU", numericCode: 929, minorUnits: 2, name: "Ouguiya"),
        Currency(code: "MUR", numericCode: 480, minorUnits: 2, name: "Mauritius Rupee"),
        Currency(code: "MVR", numericCode: 462, minorUnits: 2, name: "Rufiyaa"),
        Currency(code: "MWK", numericCode: 454, minorUnits: 2, name: "Malawi Kwacha"),
        Currency(code: "MXN", numericCode: 484, minorUnits: 2, name: "Mexican Peso"),
        Currency(
            code: "MXV", numericCode: 979, minorUnits: 2,
            name: "Mexican Unidad de Inversion (UDI)", isFund: true),
        Currency(code: "MYR", numericCode: 458, minorUnits: 2, name: "Malaysian Ringgit"),
        Currency(code: "MZN", numericCode: 943, minorUnits: 2, name: "Mozambique Metical"),
        Currency(code: "NAD", numericCode: 516, minorUnits: 2, name: "Namibia Dollar"),
        Currency(code: "NGN", numericCode: 566, minorUnits: 2, name: "Naira"),
        Currency(code: "NIO", numericCode: 558, minorUnits: 2, name: "Cordoba Oro"),
        Currency(code: "NOK", numericCode: 578, minorUnits: 2, name: "Norwegian Krone"),
        Currency(code: "NPR", numericCode: 524, minorUnits: 2, name: "Nepalese Rupee"),
        Currency(code: "NZD", numericCode: 554, minorUnits: 2, name: "New Zealand Dollar"),
        Currency(code: "OMR", numericCode: 512, minorUnits: 3, name: "Rial Omani"),
        Currency(code: "PAB", numericCode: 590, minorUnits: 2, name: "Balboa"),
        Currency(code: "PEN", numericCode: 604, minorUnits: 2, name: "Sol"),
        Currency(code: "PGK", numericCode: 598, minorUnits: 2, name: "Kina"),
        Currency(code: "PHP", numericCode: 608, minorUnits: 2, name: "Philippine Peso"),
        Currency(code: "PKR", numericCode: 586, minorUnits: 2, name: "Pakistan Rupee"),
        Currency(code: "PLN", numericCode: 985, minorUnits: 2, name: "Zloty"),
        Currency(code: "PYG", numericCode: 600, minorUnits: 0, name: "Guarani"),
        Currency(code: "QAR", numericCode: 634, minorUnits: 2, name: "Qatari Rial"),
        Currency(code: "RON", numericCode: 946, minorUnits: 2, name: "Romanian Leu"),
        Currency(code: "RSD", numericCode: 941, minorUnits: 2, name: "Serbian Dinar"),
        Currency(code: "RUB", numericCode: 643, minorUnits: 2, name: "Russian Ruble"),
        Currency(code: "RWF", numericCode: 646, minorUnits: 0, name: "Rwanda Franc"),
        Currency(code: "SAR", numericCode: 682, minorUnits: 2, name: "Saudi Riyal"),
        Currency(code: "SBD", numericCode: 90, minorUnits: 2, name: "Solomon Islands Dollar"),
        Currency(code: "SCR", numericCode: 690, minorUnits: 2, name: "Seychelles Rupee"),
        Currency(code: "SDG", numericCode: 938, minorUnits: 2, name: "Sudanese Pound"),
        Currency(code: "SEK", numericCode: 752, minorUnits: 2, name: "Swedish Krona"),
        Currency(code: "SGD", numericCode: 702, minorUnits: 2, name: "Singapore Dollar"),
        Currency(code: "SHP", numericCode: 654, minorUnits: 2, name: "Saint Helena Pound"),
        Currency(code: "SLE", numericCode: 925, minorUnits: 2, name: "Leone"),
        Currency(code: "SOS", numericCode: 706, minorUnits: 2, name: "Somali Shilling"),
        Currency(code: "SRD", numericCode: 968, minorUnits: 2, name: "Surinam Dollar"),
        Currency(code: "SSP", numericCode: 728, minorUnits: 2, name: "South Sudanese Pound"),
        Currency(code: "STN", numericCode: 930, minorUnits: 2, name: "Dobra"),
        Currency(code: "SVC", numericCode: 222, minorUnits: 2, name: "El Salvador Colon"),
        Currency(code: "SYP", numericCode: 760, minorUnits: 2, name: "Syrian Pound"),
        Currency(code: "SZL", numericCode: 748, minorUnits: 2, name: "Lilangeni"),
        Currency(code: "THB", numericCode: 764, minorUnits: 2, name: "Baht"),
        Currency(code: "TJS", numericCode: 972, minorUnits: 2, name: "Somoni"),
        Currency(code: "TMT", numericCode: 934, minorUnits: 2, name: "Turkmenistan New Manat"),
        Currency(code: "TND", numericCode: 788, minorUnits: 3, name: "Tunisian Dinar"),
        Currency(code: "TOP", numericCode: 776, minorUnits: 2, name: "Pa’anga"),
        Currency(code: "TRY", numericCode: 949, minorUnits: 2, name: "Turkish Lira"),
        Currency(code: "TTD", numericCode: 780, minorUnits: 2, name: "Trinidad and Tobago Dollar"),
        Currency(code: "TWD", numericCode: 901, minorUnits: 2, name: "New Taiwan Dollar"),
        Currency(code: "TZS", numericCode: 834, minorUnits: 2, name: "Tanzanian Shilling"),
        Currency(code: "UAH", numericCode: 980, minorUnits: 2, name: "Hryvnia"),
        Currency(code: "UGX", numericCode: 800, minorUnits: 0, name: "Uganda Shilling"),
        Currency(code: "USD", numericCode: 840, minorUnits: 2, name: "US Dollar"),
        Currency(code: "USN", numericCode: 997, minorUnits: 2, name: "US Dollar (Next day)", isFund: true),
        Currency(
            code: "UYI", numericCode: 940, minorUnits: 0,
            name: "Uruguay Peso en Unidades Indexadas (UI)", isFund: true),
        Currency(code: "UYU", numericCode: 858, minorUnits: 2, name: "Peso Uruguayo"),
        Currency(code: "UYW", numericCode: 927, minorUnits: 4, name: "Unidad Previsional"),
        Currency(code: "UZS", numericCode: 860, minorUnits: 2, name: "Uzbekistan Sum"),
        Currency(code: "VED", numericCode: 926, minorUnits: 2, name: "Bolívar Soberano"),
        Currency(code: "VES", numericCode: 928, minorUnits: 2, name: "Bolívar Soberano"),
        Currency(code: "VND", numericCode: 704, minorUnits: 0, name: "Dong"),
        Currency(code: "VUV", numericCode: 548, minorUnits: 0, name: "Vatu"),
        Currency(code: "WST", numericCode: 882, minorUnits: 2, name: "Tala"),
        Currency(code: "XAD", numericCode: 396, minorUnits: 2, name: "Arab Accounting Dinar"),
        Currency(code: "XAF", numericCode: 950, minorUnits: 0, name: "CFA Franc BEAC"),
        Currency(code: "XAG", numericCode: 961, minorUnits: nil, name: "Silver"),
        Currency(code: "XAU", numericCode: 959, minorUnits: nil, name: "Gold"),
        Currency(
            code: "XBA", numericCode: 955, minorUnits: nil,
            name: "Bond Markets Unit European Composite Unit (EURCO)"),
        Currency(
            code: "XBB", numericCode: 956, minorUnits: nil,
            name: "Bond Markets Unit European Monetary Unit (E.M.U.-6)"),
        Currency(
            code: "XBC", numericCode: 957, minorUnits: nil,
            name: "Bond Markets Unit European Unit of Account 9 (E.U.A.-9)"),
        Currency(
            code: "XBD", numericCode: 958, minorUnits: nil,
            name: "Bond Markets Unit European Unit of Account 17 (E.U.A.-17)"),
        Currency(code: "XCD", numericCode: 951, minorUnits: 2, name: "East Caribbean Dollar"),
        Currency(code: "XCG", numericCode: 532, minorUnits: 2, name: "Caribbean Guilder"),
        Currency(code: "XDR", numericCode: 960, minorUnits: nil, name: "SDR (Special Drawing Right)"),
        Currency(code: "XOF", numericCode: 952, minorUnits: 0, name: "CFA Franc BCEAO"),
        Currency(code: "XPD", numericCode: 964, minorUnits: nil, name: "Palladium"),
        Currency(code: "XPF", numericCode: 953, minorUnits: 0, name: "CFP Franc"),
        Currency(code: "XPT", numericCode: 962, minorUnits: nil, name: "Platinum"),
        Currency(code: "XSU", numericCode: 994, minorUnits: nil, name: "Sucre"),
        Currency(
            code: "XTS", numericCode: 963, minorUnits: nil,
            name: "Codes specifically reserved for testing purposes"),
        Currency(code: "XUA", numericCode: 965, minorUnits: nil, name: "ADB Unit of Account"),
        Currency(
            code: "XXX", numericCode: 999, minorUnits: nil,
            name: "The codes assigned for transactions where no currency is involved"),
        Currency(code: "YER", numericCode: 886, minorUnits: 2, name: "Yemeni Rial"),
        Currency(code: "ZAR", numericCode: 710, minorUnits: 2, name: "Rand"),
        Currency(code: "ZMW", numericCode: 967, minorUnits: 2, name: "Zambian Kwacha"),
        Currency(code: "ZWG", numericCode: 924, minorUnits: 2, name: "Zimbabwe Gold"),
    ]

    /// Australian Dollar (AUD, 036, 2 decimals).
    public static let aud = Currency(code: "AUD", numericCode: 36, minorUnits: 2, name: "Australian Dollar")

    /// Bahraini Dinar (BHD, 048, 3 decimals).
    public static let bhd = Currency(code: "BHD", numericCode: 48, minorUnits: 3, name: "Bahraini Dinar")

    /// Brazilian Real (BRL, 986, 2 decimals).
    public static let brl = Currency(code: "BRL", numericCode: 986, minorUnits: 2, name: "Brazilian Real")

    /// Canadian Dollar (CAD, 124, 2 decimals).
    public static let cad = Currency(code: "CAD", numericCode: 124, minorUnits: 2, name: "Canadian Dollar")

    /// Swiss Franc (CHF, 756, 2 decimals).
    public static let chf = Currency(code: "CHF", numericCode: 756, minorUnits: 2, name: "Swiss Franc")

    /// Unidad de Fomento (CLF, 990, 4 decimals).
    public static let clf = Currency(
        code: "CLF", numericCode: 990, minorUnits: 4,
        name: "Unidad de Fomento", isFund: true)

    /// Yuan Renminbi (CNY, 156, 2 decimals).
    public static let cny = Currency(code: "CNY", numericCode: 156, minorUnits: 2, name: "Yuan Renminbi")

    /// Czech Koruna (CZK, 203, 2 decimals).
    public static let czk = Currency(code: "CZK", numericCode: 203, minorUnits: 2, name: "Czech Koruna")

    /// Danish Krone (DKK, 208, 2 decimals).
    public static let dkk = Currency(code: "DKK", numericCode: 208, minorUnits: 2, name: "Danish Krone")

    /// Euro (EUR, 978, 2 decimals).
    public static let eur = Currency(code: "EUR", numericCode: 978, minorUnits: 2, name: "Euro")

    /// Pound Sterling (GBP, 826, 2 decimals).
    public static let gbp = Currency(code: "GBP", numericCode: 826, minorUnits: 2, name: "Pound Sterling")

    /// Hong Kong Dollar (HKD, 344, 2 decimals).
    public static let hkd = Currency(code: "HKD", numericCode: 344, minorUnits: 2, name: "Hong Kong Dollar")

    /// Forint (HUF, 348, 2 decimals).
    public static let huf = Currency(code: "HUF", numericCode: 348, minorUnits: 2, name: "Forint")

    /// Indian Rupee (INR, 356, 2 decimals).
    public static let inr = Currency(code: "INR", numericCode: 356, minorUnits: 2, name: "Indian Rupee")

    /// Iceland Krona (ISK, 352, 0 decimals).
    public static let isk = Currency(code: "ISK", numericCode: 352, minorUnits: 0, name: "Iceland Krona")

    /// Yen (JPY, 392, 0 decimals).
    public static let jpy = Currency(code: "JPY", numericCode: 392, minorUnits: 0, name: "Yen")

    /// Won (KRW, 410, 0 decimals).
    public static let krw = Currency(code: "KRW", numericCode: 410, minorUnits: 0, name: "Won")

    /// Kuwaiti Dinar (KWD, 414, 3 decimals).
    public static let kwd = Currency(code: "KWD", numericCode: 414, minorUnits: 3, name: "Kuwaiti Dinar")

    /// Mexican Peso (MXN, 484, 2 decimals).
    public static let mxn = Currency(code: "MXN", numericCode: 484, minorUnits: 2, name: "Mexican Peso")

    /// Norwegian Krone (NOK, 578, 2 decimals).
    public static let nok = Currency(code: "NOK", numericCode: 578, minorUnits: 2, name: "Norwegian Krone")

    /// New Zealand Dollar (NZD, 554, 2 decimals).
    public static let nzd = Currency(code: "NZD", numericCode: 554, minorUnits: 2, name: "New Zealand Dollar")

    /// Zloty (PLN, 985, 2 decimals).
    public static let pln = Currency(code: "PLN", numericCode: 985, minorUnits: 2, name: "Zloty")

    /// Romanian Leu (RON, 946, 2 decimals).
    public static let ron = Currency(code: "RON", numericCode: 946, minorUnits: 2, name: "Romanian Leu")

    /// Swedish Krona (SEK, 752, 2 decimals).
    public static let sek = Currency(code: "SEK", numericCode: 752, minorUnits: 2, name: "Swedish Krona")

    /// Singapore Dollar (SGD, 702, 2 decimals).
    public static let sgd = Currency(code: "SGD", numericCode: 702, minorUnits: 2, name: "Singapore Dollar")

    /// US Dollar (USD, 840, 2 decimals).
    public static let usd = Currency(code: "USD", numericCode: 840, minorUnits: 2, name: "US Dollar")

    /// Gold (XAU, 959, no minor units).
    public static let xau = Currency(code: "XAU", numericCode: 959, minorUnits: nil, name: "Gold")

    /// Codes specifically reserved for testing purposes (XTS, 963, no minor units).
    public static let xts = Currency(
        code: "XTS", numericCode: 963, minorUnits: nil,
        name: "Codes specifically reserved for testing purposes")

    /// The codes assigned for transactions where no currency is involved (XXX, 999, no minor units).
    public static let xxx = Currency(
        code: "XXX", numericCode: 999, minorUnits: nil,
        name: "The codes assigned for transactions where no currency is involved")

    /// Rand (ZAR, 710, 2 decimals).
    public static let zar = Currency(code: "ZAR", numericCode: 710, minorUnits: 2, name: "Rand")
}
