/// The dashboard's one style sheet: readable on a phone's width, visible keyboard focus,
/// no fonts or images from elsewhere.
enum DashboardStyle {
    static let css = """
        *{box-sizing:border-box}
        body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1f24;background:#f6f7f9}
        header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.75rem 1rem;background:#1f3a5f;color:#fff}
        header a,header button{color:#fff}
        nav{display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
        main{max-width:60rem;margin:0 auto;padding:1rem}
        h1{font-size:1.4rem;overflow-wrap:anywhere}
        a{color:#0b5cad}
        a:focus,button:focus,input:focus,select:focus{outline:3px solid #f5a623;outline-offset:2px}
        form{margin:.5rem 0}
        form.inline{display:inline;margin:0}
        label{display:inline-flex;flex-direction:column;margin:0 .75rem .5rem 0}
        input,select,button{font:inherit;padding:.4rem .6rem;min-height:2.5rem}
        button{background:#0b5cad;color:#fff;border:0;border-radius:4px;cursor:pointer}
        header button{background:transparent;border:1px solid #fff}
        .scroll{overflow-x:auto}
        table{border-collapse:collapse;width:100%;background:#fff}
        th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #dde1e6;white-space:nowrap}
        .number{text-align:right;font-variant-numeric:tabular-nums}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;background:#fff;padding:1rem}
        dd{margin:0;overflow-wrap:anywhere}
        .notice{background:#e3f4e8;padding:.5rem 1rem}
        [role=alert]{background:#fde8e8;padding:.5rem 1rem}
        .periods a{margin-right:.75rem}
        .periods a[aria-current]{font-weight:bold}
        .figures{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}
        figure{margin:0;max-width:100%;overflow-x:auto;background:#fff;padding:.5rem}
        .chart .bar{fill:#0b5cad}
        .chart .bar.negative{fill:#c0392b}
        .chart .axis{stroke:#1b1f24}
        @media (max-width:40rem){label{display:flex;margin-right:0}dl{grid-template-columns:1fr}}
        """
}
