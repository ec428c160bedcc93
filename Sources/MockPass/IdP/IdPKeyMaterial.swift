// Test keys, published on purpose: they sign only the mock IdPs' SAML and protect nothing.
// Keys made once with `openssl req -x509 -newkey rsa:2048 -nodes`; their self-signed certificates
// (serial 1-4, valid 2025-01-01 to 2125-01-01, so from before the simulation's start) then remade
// with Python's `cryptography`. A new key here changes every SAMLResponse's bytes and the fixtures of
// Fixtures/hostile/xml/saml/ (docs/CONFORMANCE.md, "SAML signing keys").

/// The PEM private keys and PEM certificates of `IdPSigningKey.pool`, in pool order.
enum IdPKeyMaterial {
    static let entries: [(privateKey: String, certificate: String)] = [
        (
            privateKey: """
            -----BEGIN PRIVATE KEY-----
            MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDa/+lQcbq5rSEn
            4p9QF8gmI0Yx9HvsAQyNl5rpIyllC09vWFa8dquNU+BWpemnLBHcdqh/MddXtlqY
            oW0vGzqjzKbq0m4Xj6x5zUsc+au6fm2v2qR8q8dtoDsVvms9r7JdVfvE7S/PNN5F
            fqr+K94fZuGJPcHvXWpGJDs1AgVLXMVnYHRsjXuEkF5UxktaHMVXPAo6SIhnwtob
            xwXIbXYiuEjjF0CqXHJIJPOpsXYix7cgX+FCI4qiVlFNjIp4NHaqIZJGvtrcOkoP
            lQfpoUNnRRBmehgOdsyuFcHrqEGXsbaiwJy3ocbrnAvXPPvzdihI0oU0ZTF63Hwn
            etDlQ2ZRAgMBAAECggEAYMerMdOwsxFhj6DEyr5XwxLfmH/0q60jAQe4e8MALhk7
            d3dQjWTcF06z21bi1O/SzNzbRaqfAbIig0UDXUfpOC3erfNkl6D0lbc1tI5ZZ8cr
            bgVvn3DCZx3iPo+yEMauSjUPWE2BTU6N06RQqJZ2SOZMUTwrkj50Ep88UwablFuP
            ZYH9sKGIIpS+B2BUkT4qtsziUuc4e5u7H9tX0O1eBSmLjnX+Lzu7Y6Ln11B3bFAW
            4tNihIUUP6jzEVd6tPHAxust7e++Ku8bJBZUmdbstPud20uoB7I2wU+y/3qnTBSg
            yW62EFJ1cM69Shd8eMouFCuUs40IyLftSEbrRotrSQKBgQD8X2ii1bLK9jknMSs2
            tKVHg4PjYvhRGz2hhzkBO5WBoMdw+DqStZdoD3IWAvEWOpdY9wthx8cWLbBTmCQh
            s28x36Zd/ZNganKl3jlLbvieK85fx4jP5RKmTSySMZV1mL/6BLsxYq1M/uBaiqlr
            ficohxuMRgcX5ZYbh5eBT5FzxwKBgQDeJbVa8cfkDVEBQSSi49jdOnywhZclnP2D
            /+3IwngcyrVrkRzzxlRVxD+2uMNSBclqkETFIaeiUwyJYfGOr1cimFiMFZHVv0Cz
            tC7GLtu2nGQeyMGOa857KwX2yszawDRb2HPXtWdDiPR+AcXECosZBBUMfbS0AWy4
            xFbBHqklJwKBgQC5gbQbRXOYBuc57MVz/9MhvwU6JmyayahCzG/VfSPHVhRj8MK1
            Rm/VmMzmayElksnfJjCinkO0BL+AouukLg4FHf1fR16GV5iQXcnFrftn4JFhC/1/
            u0U7Iq0phPL0ruQmdkXW5k62sv7c7uHb1q4X90ADmxHpuePdtoxiC8fBzwKBgHXV
            lLQv6fLa6Wv77P4GVANNQdS0l+8YrhT1jWDfXq0PDVqId84LFrMDzTQUH28DqMpA
            ymmyp2PgH5dD/8jK0zKDkvyDeH7j2uM3oVP4iQz9OdJmdN0h7D3DHX/CJRWnvF43
            m4MBM0xMejvYntmVKiFT3AJrL44H7262nroDlH8jAoGACmxxgbTudTjecNBIHzUO
            FP1TLhA7nnZoPrnBtfqS2OBn7sBUrQC01XCUvUL+A0OSLcsMExUyCDpyf+SmZAEU
            1tFWZLx90H3k2wpo9zRIreN+J3Hyue9YNz6vVLLmxWoxJzFLW5hDLeU/je2PoZ2q
            yB/+PAl0LsPCIrhOUN/HcNk=
            -----END PRIVATE KEY-----
            """,
            certificate: """
            -----BEGIN CERTIFICATE-----
            MIIDWDCCAkCgAwIBAgIBATANBgkqhkiG9w0BAQsFADBEMRowGAYDVQQDDBFwYXNz
            aW0gdGVzdCBJZFAgMDEmMCQGA1UECgwdcGFzc2ltICh0ZXN0IGtleSwgbm90IHNl
            Y3JldCkwIBcNMjUwMTAxMDAwMDAwWhgPMjEyNTAxMDEwMDAwMDBaMEQxGjAYBgNV
            BAMMEXBhc3NpbSB0ZXN0IElkUCAwMSYwJAYDVQQKDB1wYXNzaW0gKHRlc3Qga2V5
            LCBub3Qgc2VjcmV0KTCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBANr/
            6VBxurmtISfin1AXyCYjRjH0e+wBDI2XmukjKWULT29YVrx2q41T4Fal6acsEdx2
            qH8x11e2WpihbS8bOqPMpurSbhePrHnNSxz5q7p+ba/apHyrx22gOxW+az2vsl1V
            +8TtL8803kV+qv4r3h9m4Yk9we9dakYkOzUCBUtcxWdgdGyNe4SQXlTGS1ocxVc8
            CjpIiGfC2hvHBchtdiK4SOMXQKpcckgk86mxdiLHtyBf4UIjiqJWUU2Ming0dqoh
            kka+2tw6Sg+VB+mhQ2dFEGZ6GA52zK4VweuoQZextqLAnLehxuucC9c8+/N2KEjS
            hTRlMXrcfCd60OVDZlECAwEAAaNTMFEwHQYDVR0OBBYEFNT4Y43GPf0x91SH7LZ0
            fLV+VhkVMB8GA1UdIwQYMBaAFNT4Y43GPf0x91SH7LZ0fLV+VhkVMA8GA1UdEwEB
            /wQFMAMBAf8wDQYJKoZIhvcNAQELBQADggEBACdNODSYIsWhTHKWGkRo1ciezwmm
            ky77NgHUK3BIJ1rDBxAJvVks3shGwxHuG6yD55zTj0pcYNO6VH/fUfNPBr1ro3VI
            SIp7XdeD2QYunl16cmnSqA1vVCizYa5NRmT3pS3Lv0EieQRTY/DX7fTEqjEWvfI+
            wYoF5SOfKSi8+RfRrc2QM+YyZiP/dDZX+ptxdgLEVIaEaoTHcQGDU154qitkkodV
            g0+bQ0vRpZ8L1f4lAC/xkot7DfAV0OEBE3Q0l3IX/tTWFICbge37SZHIlyJ4FXF4
            K7h2YePCNP7U/w/lVktPFlvrUfsg8BhfqbpPRGVsQ80xivD9H4ATpZIBCZA=
            -----END CERTIFICATE-----
            """
        ),
        (
            privateKey: """
            -----BEGIN PRIVATE KEY-----
            MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCG8221FIOUFoRw
            WwjyKDli9TfTM8HbDHvZjtsrasYNltqzOTue9MF7tPJ8M39f5qmOkeHh5p1LQA9T
            CCZwvhH7UqtSA2oJJRIpFEdcul53KuZ/+1f/7AD/8hALjlBLc+uSiLRaWsGynAKR
            +jANBqC1x7WScmMDK7dLJOmfgMUicAWYTZOBFOEeTo7bFgxZ6slVLZCNo0/RLfcy
            pKnOk5TlJQtCMdGSMoBfT4gY6XuFd7/GAazlSIPhSZhKzrMDE/F6ltAF/GGtVdTJ
            fZat0SSuZjVsmbm7kH+c8FXWPwIvNvc3oQ1WKvQX0kc466teKt/ZXgN15RWyyNT3
            a1tPeUk3AgMBAAECggEAC7lLLx+UnMFmCRLHkK4Q6jlue6Ez9rE7czeXb8qrYRPZ
            dReER/dwdaxPIp4gszapRVMEIil0QczTZ/29xS6mBkT00D+urxOy47G4z2P7f/PQ
            qY6u4vNgVNv1K+PVsvBjp0vMC0t2J2upR4BKO193h8NNUWcxld1u447V4v7/YVHk
            xFnF+UZCAmnIyvRJD0SL6ybJYj+vLIv0KeTUYgNwg/193StNWM3nvWccuJDMW04o
            nYnQa65ftQG8+4Q5H6bONMT6o+e9gBE7VYLVFRF8B6jNtgm7X/6zhBHL6jJvzvfx
            l6/f47JVw8ZJm3bM9lMN6QRYCX5M4guALjubQQfVDQKBgQC+njWmNu4cdQYtTzBm
            2Ddc1Fwnb5tvRiohjSZ1LlHH1WpuKWq4EC4lCNzh/7TtDdIx8c31XcQ2t1vlHwzv
            PGIcj+zZGOKyofHuTHUMzsC0PX9vB6MZT0iwmGVbRbSXYdv7aAwgCK4doBm8ni4m
            LOyxDLeAQlSm+FGG9PnauYiduwKBgQC1PTMjRCku+EsAjKKsNC3OZwWt3XAEJM6c
            WOXbSly13Qg/8pLfrhHpS9fVb+ToNcB9ohfi5Zy+f/I93z3+JPyFxwWgd2nhaY5T
            8Pbi29Lm9V8gMZhXjKDbxnTnAXksZaK4YdPClYgaVdDk/gvlI5K/qzVnfRwBRYVk
            AjpmaScMtQKBgQCpU88ilL8WJlpTW3oKkd00KCyol3sC8NgyL7nO9FOPaaR+sWns
            ker72RCl7clhnxpuZXdolF/dnyoRsXCDACfDaZKjE3kl57gK0H5V3z/NnKecELOw
            ov5WaTn4R0ZyB2srvDSxLCTHilXyeK1UGioz6LEFTWb3X7TEZs+gnZmfSwKBgQCB
            mvxA0fNphWGNSQTjhITlP0MObHY4YGHn6KKnSOw3mZLWuA9UKdThMr1sApJ9hELd
            FNdkCLMof7KpkEVywtxahlJ9yCdNbQC9AmprHKwbQYj/Krg4k3ZM9ASRVbpjh2Lv
            2/VlBy3HN2sk9o9nEyNUMYkFMrCeMCsNs5IzviqQqQKBgBbm0vnBsEuQ3oF8m8Ac
            LzvMeWETGdDodLdjWXSYw/tzrdpVFNY9YUbmDjxOlls2KMMLIaVnXQI/8KQvmOac
            PbfBz6/2WMhDZG5uzplcokIXPBujwsxh8E6iBvQnQYgJhGlIChnOxglcgc8tFZA4
            ZiYXr6WnzDi1m5ZzN7hF1Vc+
            -----END PRIVATE KEY-----
            """,
            certificate: """
            -----BEGIN CERTIFICATE-----
            MIIDWDCCAkCgAwIBAgIBAjANBgkqhkiG9w0BAQsFADBEMRowGAYDVQQDDBFwYXNz
            aW0gdGVzdCBJZFAgMTEmMCQGA1UECgwdcGFzc2ltICh0ZXN0IGtleSwgbm90IHNl
            Y3JldCkwIBcNMjUwMTAxMDAwMDAwWhgPMjEyNTAxMDEwMDAwMDBaMEQxGjAYBgNV
            BAMMEXBhc3NpbSB0ZXN0IElkUCAxMSYwJAYDVQQKDB1wYXNzaW0gKHRlc3Qga2V5
            LCBub3Qgc2VjcmV0KTCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBAIbz
            bbUUg5QWhHBbCPIoOWL1N9MzwdsMe9mO2ytqxg2W2rM5O570wXu08nwzf1/mqY6R
            4eHmnUtAD1MIJnC+EftSq1IDagklEikUR1y6Xncq5n/7V//sAP/yEAuOUEtz65KI
            tFpawbKcApH6MA0GoLXHtZJyYwMrt0sk6Z+AxSJwBZhNk4EU4R5OjtsWDFnqyVUt
            kI2jT9Et9zKkqc6TlOUlC0Ix0ZIygF9PiBjpe4V3v8YBrOVIg+FJmErOswMT8XqW
            0AX8Ya1V1Ml9lq3RJK5mNWyZubuQf5zwVdY/Ai829zehDVYq9BfSRzjrq14q39le
            A3XlFbLI1PdrW095STcCAwEAAaNTMFEwHQYDVR0OBBYEFKnxReyh0oIMarWXWe3X
            1MUSwITaMB8GA1UdIwQYMBaAFKnxReyh0oIMarWXWe3X1MUSwITaMA8GA1UdEwEB
            /wQFMAMBAf8wDQYJKoZIhvcNAQELBQADggEBAE9GNgcfFH0oxxLboGqAfnmynNfu
            B2FonMCcwuhDNYDAIzOWc0PrPrPNFU7TTiKBaARixAlwLlPMS9Iph2Tceo7XGH1D
            dchxo0F3IYl++JvAGjIFpURUX7rifSa1GXeFgDNEcqk6zI7wOm+qRyGpsDDWQ9a6
            g35KXfwBuLR47quad2bpBhVmDRwr9csCFCYxQHPhNz9NYSyCfFJC0WNgvUqB2pBL
            +5FWSsgEBrpR7txV9Y035/XBmY/vBCSol7HJZh+GdOEdcbBeCMu/iG77RCAg+k/p
            1pFBUEvjElsUWOgm7ZyP9bo1nzJ5Hj2VI8qsKkBeI7AjY21qfwmngKkogQ0=
            -----END CERTIFICATE-----
            """
        ),
        (
            privateKey: """
            -----BEGIN PRIVATE KEY-----
            MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDXw8D7wVwJ8FKi
            bBVcF7hAbQWyFVF9xSgmbopMR2nnwuvHrKvHGlm6sTghd/eNHvktcQqgyu9RstHq
            vDsoSwGLcfrdkeaMrtpEd4KiLATsqaJ34esx0bYKpwz7wdAt420CYx2YMzqbwfIL
            M5eNSdFzNc9VBaC3+m1MNGGpzuz89n3nFaLSh2Qq1dwRu3JyTbKOiMu3kz6fkCoN
            09cxBDze6VoyoWJCHR78AtnJGdssfIz6MKhc6FpqnVr8OrxaPLM58UIxIdinWQM1
            RKK0IXZCwn59jQbTO6IcUuivmk/p/HvBx5LBg3lFwwJKePkRv6a4t2dOXEQ6m2is
            99x3/QCBAgMBAAECggEADsz+Nt7emQ1v47WpmO/FG0FHSd4pwQiGXq2IRd+Duare
            uOukvHOXqmV4Ad68f+UbJ3V4yssk88wiF3m6TqMni9jhojOdFrMzZI00rDp8C35+
            9z2LgFdABzbKnpX+2Xj/fDGPoQZJm8/n8kIDoETrLd2n9297hQdUGk1BElCQI/GF
            9q9TOuWWXlg5Jfp8MyfiN/ttcUfQgLteQeFdRuTG6FTPnpvL29UDNjB7VkqeroIy
            3XxaNxkuTxDEzHZMDI+qgtNJ4q3sMuP8f9Bs3D5R2D9iQ+vQcxYWostItXsuM3F/
            0kHQLRFn9YatKbWcNXoWfU656KhTi39gMKCq+UVmmQKBgQDrsEx0rDdNuTA/Ie0l
            1nsjuBQPMBomwbXfNbtMEO6PVEqOaot2OHnkJuXMjg4TMZ9vdlmIRmBwdvTLJ6Oe
            AxXVv1PNVRex9wlcvbH27OAH7ZxxiA+RZ/uRbRXkO9hMMn1OVvk45+N1U7Rv+4bD
            PkzufJ5+oxmHPjXo81nYI146aQKBgQDqW+WmbodO+NsXWSjLfJdHbh5igLI989rR
            2ERTGyChL38+nT861YUEta74RhpPg6EYm3eIcO+SahkbC8VdHYTj5mEVZPHOqd2r
            Guv8OU3/FMDGR+e8/UKhFm0HQX1QrVBPu53UxzS+wUiYFJr9lNl4ac+uM3Np/hoq
            TSdW3hriWQKBgGFSfV+4NWX80HVhVwHG3TZUrsPOwx2545X2JA829qtszRSd3lTE
            4WBax41+I0W9ue5W2oWxOeV22YKCLcfz0jJfPQWO26f7MHyBQFmMWr4rWexvmK4c
            V/8nImEKbTiZqLCOrX7YEk7Cb8HGBVHeCfp4ryHvy3zTLYOx6SmdAS3xAoGACPNf
            jv6zrkF05KxkEXl9sZ20DWEK7bDNj6wp1962XVGaE4Mf8hhLj0V9HEBZKuZFFdKC
            OzTNAZOJx+2oKQlClQ2scYu8bH8yVyGdF7H8l5xsTGZcpGwrykk3+sn2hklIQvNQ
            cNr22b46Dozi6oJv19h6tRWD9+1bhHgT445yCmkCgYEA3AplvHo9GWkdueyLyaS2
            mOggJV2Ewx19hsi4NclJ9f85HWdGKI43BEVRZPzM7QU/XDuoYaOrV0o88pwTXR5K
            mWiB+5fyB1TSGZ6sq2nmKWgHCXVZfF7zqZYLBNmat8fmGWh0WKeiz2qAItbWJ3Bz
            IpgZ1FeRUhA239uym4ap7FY=
            -----END PRIVATE KEY-----
            """,
            certificate: """
            -----BEGIN CERTIFICATE-----
            MIIDWDCCAkCgAwIBAgIBAzANBgkqhkiG9w0BAQsFADBEMRowGAYDVQQDDBFwYXNz
            aW0gdGVzdCBJZFAgMjEmMCQGA1UECgwdcGFzc2ltICh0ZXN0IGtleSwgbm90IHNl
            Y3JldCkwIBcNMjUwMTAxMDAwMDAwWhgPMjEyNTAxMDEwMDAwMDBaMEQxGjAYBgNV
            BAMMEXBhc3NpbSB0ZXN0IElkUCAyMSYwJAYDVQQKDB1wYXNzaW0gKHRlc3Qga2V5
            LCBub3Qgc2VjcmV0KTCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBANfD
            wPvBXAnwUqJsFVwXuEBtBbIVUX3FKCZuikxHaefC68esq8caWbqxOCF3940e+S1x
            CqDK71Gy0eq8OyhLAYtx+t2R5oyu2kR3gqIsBOyponfh6zHRtgqnDPvB0C3jbQJj
            HZgzOpvB8gszl41J0XM1z1UFoLf6bUw0YanO7Pz2fecVotKHZCrV3BG7cnJNso6I
            y7eTPp+QKg3T1zEEPN7pWjKhYkIdHvwC2ckZ2yx8jPowqFzoWmqdWvw6vFo8sznx
            QjEh2KdZAzVEorQhdkLCfn2NBtM7ohxS6K+aT+n8e8HHksGDeUXDAkp4+RG/pri3
            Z05cRDqbaKz33Hf9AIECAwEAAaNTMFEwHQYDVR0OBBYEFBkLP12HgF2L671XrN0m
            2odPPog9MB8GA1UdIwQYMBaAFBkLP12HgF2L671XrN0m2odPPog9MA8GA1UdEwEB
            /wQFMAMBAf8wDQYJKoZIhvcNAQELBQADggEBAGcs9+yFlarEKotMWwg12bg+xeLl
            IcG5uJuma8tem6s+QcDiLICKcvpXTQwyGwmVpJQxpe68ZV8JAAlMT2VhnIi6vpci
            XSYYvDhSeqo48P3SB9EVyKDUAZrkQPZpdYBHbDAzhiNkSx5Yl34EJuwj6SFS/6bd
            EVKqXfZdN9zxKfYmuwUq/7FNE07qwg6ClF5l0qkoDQ7DyXXr9i5/haxkdS1jekbh
            wGg2A1Mj3qms6n5Nvi986XkVtZS/Mc5eMR0iXg4ri+oq9Y4SFcjIbhjzFj5YMDH+
            b0LUkB30aEAtRsVgFgrfL8LRMzB+qewsT0Yc38jqieWQrYtq0uO09spEG1I=
            -----END CERTIFICATE-----
            """
        ),
        (
            privateKey: """
            -----BEGIN PRIVATE KEY-----
            MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCy/62XKVN0+XZ3
            F9LEa2BSVuwWpOichT0txtm3+72EaLQv47Q0G6NDKan3LCiRTZKVElxzMxUwRB47
            y8LDkpgA1tnPymt7l7iIZhAkwbjT3O29fYolsN2g80fkKPIAF6atGvLfr970H2ow
            md6Mb2e4j1IDf6XG5RbNuVjhAgrcWZVaUg0tnd4z41Oj03/oWr1oQv27F6QeVh5d
            PY3KUdH338yhfdr2UwH4J70cbVxbXeOytQS87FljtADz1I3X2reBIHAyTAC/RXge
            tBThNA2sv9ObXVIb6Pg0pQlSg29Wk+8gw+iWy1/gqvjSS5z8g5kYMqYbBaNXYvZe
            +WRJAyLLAgMBAAECggEAVjqLEl3LIXenVPm6A/tCHIhZFRN+JyCcdzfq3BG+m1Gh
            M8y6m7uQq6MfiL3SESVQbtW4iZpbI7Q86EthWLt+1DCsHsiBfLl7IOIh9sMH2a/9
            KyKV8VBBg+6OfGApLFg4Z/2qcI2Vlv6nNiB5sCdezO7l8F+GqcjkclhOc557Quhq
            VMdxCTbvtsZtSmwv9L/cQ+A8yeTSaPIz/Ds2Ngiw19dexDgf8iZEHzVYUr6RjwfG
            CAMGROpZ9UfL+Tv/Uu9S/ZLQtTAVp3N0svNvs8zLlIqWT/qvocJ1QFeCxhtaFmhC
            Ih6BlcNpQ0ok1OEoutTyc6fD5iivx/G0T+JyaBM6SQKBgQDiU0g4Zxj3ZRf4k/ul
            zb4Ny00XnfFKxeneGOLr+VHRUVISxehoYj3Mkj45XS6BxFtq++7kBLjfVakYBR6t
            F10k4Sv83K5YUMVDZNb51S4pfEP0q1SETCgLWqmFfccPTWVCU5ia8wJBPef/JMaq
            NJBhD1HIFZJz1EcYhAY2da/u/wKBgQDKd9tQIL61iqffGOFouGzaRF5sPz3xYJ+3
            slbEzbFEmvj/0J0Tl0Bq7Y0DqUOBfI5tZVywIXBfyzJIoZSm69F1O0lvg+TYdpm7
            H+Ln/AlmO+6YEjAy/xmBL4oU0Vp+TK0oiYmPsO4L6Deu1ZF80uIbclSS85TrFfQf
            r2I/7ZFYNQKBgQCfjq08rlpol4nVwqZH1wuk9+3qt3vUBkGBRbQ9PnETC6y79XCK
            nrAI2BUsJehSrhbxDpn1gOrA8MgcWgetaepNxL1ZME9tjcv0XlQ8n7FCqAvUozEb
            cAFPN+SJawn6XMsFfp/4pVeynS1AsDGq7xHWi5FRaPvt0vsoanNi04dsCwKBgGT3
            hGzfB3us265L0AzS+6WVNqkwmIlIsB2BV/fow5/80HNx6wMcCEnKkOnkfP+Tx8sS
            IzjKVCnRQRArU+Ax9VBK8oIj+flgm6VPb25Up7NN69v2JgcoY+WieW+MP16AilGO
            1QTNLMjPUwVjB5yB5bPePgLSac8aMZWjdpF+vV6JAoGBAMSYWAbImwRSwFb1NKE+
            cCBE/N3RSpZAaiVqslT4GuAZMG5kBNvNmEmNXoYy6RR12+DgkC+uK4XGZOw/ApWW
            yIJURnv5JpmZxPFfdZZ3Q96E9tF+OEyI87OBndpXPjoRLzAOyFH7n5MITX4wBE+2
            iTpD05AdGAMIiozfFpACaUrT
            -----END PRIVATE KEY-----
            """,
            certificate: """
            -----BEGIN CERTIFICATE-----
            MIIDWDCCAkCgAwIBAgIBBDANBgkqhkiG9w0BAQsFADBEMRowGAYDVQQDDBFwYXNz
            aW0gdGVzdCBJZFAgMzEmMCQGA1UECgwdcGFzc2ltICh0ZXN0IGtleSwgbm90IHNl
            Y3JldCkwIBcNMjUwMTAxMDAwMDAwWhgPMjEyNTAxMDEwMDAwMDBaMEQxGjAYBgNV
            BAMMEXBhc3NpbSB0ZXN0IElkUCAzMSYwJAYDVQQKDB1wYXNzaW0gKHRlc3Qga2V5
            LCBub3Qgc2VjcmV0KTCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBALL/
            rZcpU3T5dncX0sRrYFJW7Bak6JyFPS3G2bf7vYRotC/jtDQbo0MpqfcsKJFNkpUS
            XHMzFTBEHjvLwsOSmADW2c/Ka3uXuIhmECTBuNPc7b19iiWw3aDzR+Qo8gAXpq0a
            8t+v3vQfajCZ3oxvZ7iPUgN/pcblFs25WOECCtxZlVpSDS2d3jPjU6PTf+havWhC
            /bsXpB5WHl09jcpR0fffzKF92vZTAfgnvRxtXFtd47K1BLzsWWO0APPUjdfat4Eg
            cDJMAL9FeB60FOE0Day/05tdUhvo+DSlCVKDb1aT7yDD6JbLX+Cq+NJLnPyDmRgy
            phsFo1di9l75ZEkDIssCAwEAAaNTMFEwHQYDVR0OBBYEFE5mxLKu30JmadX+VgJD
            zyL++qK0MB8GA1UdIwQYMBaAFE5mxLKu30JmadX+VgJDzyL++qK0MA8GA1UdEwEB
            /wQFMAMBAf8wDQYJKoZIhvcNAQELBQADggEBAEvAXEAk7TOdpYQN4yaxsBQAPnso
            Q8AS2ENBpHtKtLgW5+BT0UEg8PTr0oFU0aGivufaInj5E5x1Q+uyDPrM6WKZNS+c
            b58StinmD9+ZSjsO1IvatbNHyfFwVzeUZm3/isjNbqmr9+NeVubUWHiEvEklxgON
            yALla6Sd+E8T0K28NP75+S+MjMRo7UU7mfxUhUgHyRu2GHVbNCwblsiFfYP14CRo
            noKQStexbHDJ7M2s/csO3FUe5OxXBjxKH9G0HVaxTXN4eSw4uWqFM1O1PX062rSD
            vMsdNNlkcYv/z4L1tFehjESYUvDtV2HwzHMVMHHULqnjWqEDkb4BcWGnTyI=
            -----END CERTIFICATE-----
            """
        ),
    ]
}
