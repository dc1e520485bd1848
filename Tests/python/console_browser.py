"""Walks the sandbox console in headless Chromium (selenium + chromedriver): signs in with the operator
token through the form, follows the links from the project to its transaction (printing its timeline) to the event, presses
the resend button, then on the project page advances the test clock and disables the webhook
endpoint, and opens the request log; saves a screenshot of each page.

Usage: console_browser.py BASE_URL TOKEN PROJECT_ID TRANSACTION_ID EVENT_ID SCREENSHOT_PREFIX
Prints the page headings and the notices, one per line.
"""
import sys

import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

base, token, project, transaction, event, prefix = sys.argv[1:7]
driver = chromium.start()


def follow(text, shot):
    page = driver.current_url
    driver.find_element(By.LINK_TEXT, text).click()
    WebDriverWait(driver, 60).until(lambda d: d.current_url != page)
    driver.save_screenshot(f"{prefix}-{shot}.png")
    print(driver.find_element(By.TAG_NAME, "h1").text)


def timeline():
    """The timeline's What column, one line each, prefixed with "timeline: "."""
    cells = driver.find_elements(By.XPATH, "//caption[starts-with(., 'Timeline')]/../tbody/tr/td[2]")
    for cell in cells:
        print("timeline: " + cell.text)


def press(label, shot):
    page_source = driver.page_source
    driver.find_element(By.XPATH, f"//button[normalize-space()='{label}']").click()
    WebDriverWait(driver, 60).until(lambda d: d.page_source != page_source)
    driver.save_screenshot(f"{prefix}-{shot}.png")


try:
    driver.get(base + "/console")
    driver.save_screenshot(f"{prefix}-sign-in.png")
    driver.find_element(By.ID, "token").send_keys(token)
    driver.find_element(By.XPATH, "//button[normalize-space()='Open the console']").click()
    WebDriverWait(driver, 60).until(lambda d: d.current_url.endswith("/console"))
    driver.save_screenshot(f"{prefix}-projects.png")
    print(driver.find_element(By.TAG_NAME, "h1").text)
    follow(project, "project")
    follow(transaction, "transaction")
    timeline()
    follow(event, "event")
    page = driver.current_url
    driver.find_element(By.XPATH, "//button[normalize-space()='Resend to this endpoint']").click()
    WebDriverWait(driver, 60).until(lambda d: d.current_url != page)
    driver.save_screenshot(f"{prefix}-resent.png")
    print(driver.find_element(By.CSS_SELECTOR, "[role=status]").text)
    follow(project, "project-again")
    press("Advance", "clock")
    print(driver.find_element(By.CSS_SELECTOR, "[role=status]").text)
    press("Disable", "endpoint-disabled")
    print("disabled" if "disabled" in driver.page_source else "still enabled")
    follow("Requests", "requests")
finally:
    driver.quit()
